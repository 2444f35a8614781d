// The tests' precompiled header: the library's (common.hpp) and GoogleTest.
#pragma once

#include "common.hpp"

#include <gtest/gtest.h>
