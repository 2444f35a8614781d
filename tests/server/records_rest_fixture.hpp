// The helpers of the records REST tests (rest_records_write_test.cpp,
// rest_records_seed_shapes_test.cpp): posts and gets that expect their status, and refusals that
// expect an error code and, for 400, a message starting with the field's name.
#pragma once

#include <string>

#include "rest_fixture.hpp"

namespace parley::test {

inline std::string text(const boost::json::value& v) { return std::string(v.as_string()); }

// The error object's `field` ("code", "message"), or a note that the reply carried none.
inline std::string error_field(const http_reply& reply, const char* field) {
  const auto body = reply.json();
  if (!body.is_object() || !body.as_object().contains("error")) return "(no error object: " + reply.body + ")";
  return text(body.at("error").at(field));
}

class RecordsRestTest : public RestTest {
 protected:
  boost::json::value post_ok(const std::string& target, const boost::json::value& body, int status = 201) {
    const auto reply = client().post(target, body);
    EXPECT_EQ(reply.status, status) << target << ": " << reply.body;
    return reply.json();
  }
  boost::json::value get_ok(const std::string& target) {
    const auto reply = client().get(target);
    EXPECT_EQ(reply.status, 200) << target << ": " << reply.body;
    return reply.json();
  }
  // `status` with the error's code; for 400 the message starts with the field's name.
  void expect_refused(const std::string& target, const boost::json::value& body, int status, const std::string& code,
                      const std::string& field = {}) {
    const auto reply = client().post(target, body);
    EXPECT_EQ(reply.status, status) << target << " " << boost::json::serialize(body) << ": " << reply.body;
    EXPECT_EQ(error_field(reply, "code"), code) << reply.body;
    if (!field.empty()) {
      EXPECT_EQ(error_field(reply, "message").rfind(field + ":", 0), 0U) << reply.body;
    }
  }
};

}  // namespace parley::test
