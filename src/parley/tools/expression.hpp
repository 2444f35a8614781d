// Arithmetic for the `calculate` tool: + - * / unary signs, parentheses and decimal numbers.
#pragma once

#include <string>
#include <string_view>

#include "parley/core/result.hpp"

namespace parley::tools {

// errc::invalid_argument naming the position (1-based character) of the problem, or division by zero.
result<double> evaluate_expression(std::string_view expression);
// Integers without a decimal point, others with up to 15 significant digits ("0.3", not 0.30000000000000004).
std::string format_number(double value);

}  // namespace parley::tools
