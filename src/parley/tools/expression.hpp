// Arithmetic for the `calculate` tool: + - * / unary signs, parentheses and decimal numbers.
#pragma once

#include <string>
#include <string_view>

#include "parley/core/result.hpp"

namespace parley::tools {

// errc::invalid_argument naming the position (1-based character) of the problem, or division by zero.
result<double> evaluate_expression(std::string_view expression);

}  // namespace parley::tools
