#include "parley/eval/reports.hpp"

#include <cstdio>

#include "parley/core/text.hpp"

namespace parley::eval {
namespace {

std::string report_percent(double rate) {
  char text[16];
  std::snprintf(text, sizeof text, "%.0f%%", rate * 100.0);
  return text;
}

std::string report_seconds(std::int64_t ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", static_cast<double>(ms) / 1000.0);
  return text;
}

std::string junit_attempt(const case_report& one, const case_attempt& attempt, bool numbered) {
  const std::string name = one.name + (numbered ? " #" + std::to_string(attempt.attempt) : std::string());
  std::string xml = "  <testcase classname=\"eval\" name=\"" + markup_escape(name) + "\" time=\"" +
                    report_seconds(attempt.duration_ms) + "\">\n";
  if (!attempt.error.empty()) {
    xml += "    <error message=\"" + markup_escape(attempt.error) + "\"/>\n";
  }
  for (const auto& check : attempt.checks) {
    if (check.outcome == verdict::pass) continue;
    const char* tag = check.outcome == verdict::error ? "error" : "failure";
    xml += std::string("    <") + tag + " message=\"" + markup_escape(check.check + ": " + check.message) + "\">" +
           markup_escape(check.where + (check.reasons.empty() ? "" : "\njudge's reasons: " + check.reasons)) + "</" +
           tag + ">\n";
  }
  xml += "    <system-out>root " + markup_escape(attempt.root_id) + "</system-out>\n  </testcase>\n";
  return xml;
}

std::string html_case(const case_report& one) {
  std::string html = "<h2>" + markup_escape(one.name) + " <small>" + verdict_name(one.outcome()) + ", " +
                     report_percent(one.pass_rate()) + " passed</small></h2>\n<p class=where>" +
                     markup_escape(one.where) + "</p>\n";
  for (const auto& attempt : one.attempts) {
    html += "<h3>attempt " + std::to_string(attempt.attempt) + ": " + verdict_name(attempt.outcome) + " <small>root " +
            markup_escape(attempt.root_id) + ", " + std::to_string(attempt.rounds) + " rounds, " +
            std::to_string(attempt.tokens) + " tokens, " + std::to_string(attempt.duration_ms) + " ms</small></h3>\n";
    if (!attempt.error.empty()) html += "<p class=error>" + markup_escape(attempt.error) + "</p>\n";
    html += "<table><tr><th>check</th><th>verdict</th><th>message</th><th>judge's reasons</th></tr>\n";
    for (const auto& check : attempt.checks) {
      html += std::string("<tr class=") + verdict_name(check.outcome) + "><td>" + markup_escape(check.check) +
              "</td><td>" + verdict_name(check.outcome) + "</td><td>" + markup_escape(check.message) + "</td><td>" +
              markup_escape(check.reasons) + "</td></tr>\n";
    }
    html += "</table>\n<details><summary>answer</summary><pre>" + markup_escape(attempt.answer) + "</pre></details>\n";
  }
  return html;
}

std::string html_comparison(const std::vector<case_comparison>& comparison) {
  std::string html =
      "<h2>compared with the earlier run</h2>\n<table><tr><th>case</th><th>before</th><th>now</th>"
      "<th>change</th><th>first parting</th></tr>\n";
  for (const auto& row : comparison) {
    std::string parting;
    if (row.diff && row.diff->first_parting) parting = row.diff->first_parting->path;
    html += "<tr class=" + row.change + "><td>" + markup_escape(row.name) + "</td><td>" +
            (row.before ? report_percent(*row.before) : "-") + "</td><td>" +
            (row.after ? report_percent(*row.after) : "-") + "</td><td>" + row.change + "</td><td>" +
            markup_escape(parting) + "</td></tr>\n";
  }
  return html + "</table>\n";
}

}  // namespace

std::string markup_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        // XML 1.0 has no other control characters than tab, newline and carriage return.
        if (byte < 0x20 && c != '\t' && c != '\n' && c != '\r') {
          out += "\xEF\xBF\xBD";  // U+FFFD
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string junit_xml(const eval_run& run) {
  std::int64_t tests = 0;
  std::int64_t failures = 0;
  std::int64_t errors = 0;
  std::string body;
  for (const auto& one : run.cases) {
    for (const auto& attempt : one.attempts) {
      ++tests;
      failures += attempt.outcome == verdict::fail ? 1 : 0;
      errors += attempt.outcome == verdict::error ? 1 : 0;
      body += junit_attempt(one, attempt, run.repeat > 1);
    }
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"" + markup_escape(run.suite) + "\" id=\"" +
         markup_escape(run.id) + "\" tests=\"" + std::to_string(tests) + "\" failures=\"" + std::to_string(failures) +
         "\" errors=\"" + std::to_string(errors) + "\" time=\"" + report_seconds(run.finished_ms - run.started_ms) +
         "\">\n" + body + "</testsuite>\n";
}

std::string html_report(const eval_run& run, const std::vector<case_comparison>& comparison) {
  std::string html =
      "<!doctype html>\n<html><head><meta charset=utf-8><title>parley eval " + markup_escape(run.id) +
      "</title>\n<style>body{font-family:sans-serif;max-width:70em;margin:auto}table{border-collapse:collapse}"
      "td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}.pass "
      "td:nth-child(2){color:#070}"
      ".fail td:nth-child(2),.error td:nth-child(2),.error{color:#a00}.where{color:#666}.worse{background:#fee}"
      ".better{background:#efe}pre{white-space:pre-wrap}</style></head><body>\n<h1>parley eval: " +
      markup_escape(run.suite) + "</h1>\n<p>run " + markup_escape(run.id) + ", " + std::to_string(run.cases.size()) +
      " cases × " + std::to_string(run.repeat) + ", " + report_percent(run.pass_rate()) + " of attempts passed</p>\n";
  if (!comparison.empty()) html += html_comparison(comparison);
  for (const auto& one : run.cases) html += html_case(one);
  return html + "</body></html>\n";
}

}  // namespace parley::eval
