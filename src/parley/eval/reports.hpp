// The files `parley eval` writes for other tools: JUnit XML (--junit FILE) and a static HTML report
// (--html DIR, its index.html). Every text from a model or a file is escaped for its format, and
// characters XML 1.0 cannot carry are replaced.
#pragma once

#include <string>
#include <vector>

#include "parley/eval/compare.hpp"
#include "parley/eval/runner.hpp"

namespace parley::eval {

// One <testsuite> named after the suite; one <testcase> per attempt ("name #2" for the second),
// with <failure> for a failed check and <error> for an error.
std::string junit_xml(const eval_run& run);
// A page of the run: pass rates, each case's attempts and checks with their messages and the
// judges' reasons; the comparison with an earlier run when `comparison` is not empty.
std::string html_report(const eval_run& run, const std::vector<case_comparison>& comparison);
// Text safe inside XML/HTML content and attribute values.
std::string markup_escape(std::string_view text);

}  // namespace parley::eval
