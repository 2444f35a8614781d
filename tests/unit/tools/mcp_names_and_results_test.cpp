// Dominds' naming rules for MCP tools and resources, URI templates, and what the model is told of
// a tool result or a failed call.
#include <gtest/gtest.h>

#include "parley/tools/mcp/mcp_tool.hpp"
#include "parley/tools/mcp/name_rules.hpp"
#include "parley/tools/mcp/uri_template.hpp"

namespace parley::tools::mcp {
namespace {

using transform = config::mcp_name_transform;

TEST(McpNames, ValidNamesAreThoseBothModelApisTake) {
  EXPECT_TRUE(is_valid_tool_name("get-sum_2"));
  EXPECT_TRUE(is_valid_tool_name(std::string(64, 'a')));
  EXPECT_FALSE(is_valid_tool_name(std::string(65, 'a')));
  EXPECT_FALSE(is_valid_tool_name(""));
  EXPECT_FALSE(is_valid_tool_name("read.file"));
  EXPECT_FALSE(is_valid_tool_name("lire_fichier_é"));
}

TEST(McpNames, WildcardsMatchAnyRunOfCharacters) {
  EXPECT_TRUE(matches_wildcard("read_file", "*"));
  EXPECT_TRUE(matches_wildcard("read_file", "read_*"));
  EXPECT_TRUE(matches_wildcard("read_file", "*_file"));
  EXPECT_TRUE(matches_wildcard("read_file", "r*d*e"));
  EXPECT_TRUE(matches_wildcard("aba", "a*b*a"));
  EXPECT_FALSE(matches_wildcard("a", "a*a"));
  EXPECT_FALSE(matches_wildcard("read_file", "read"));
  EXPECT_FALSE(matches_wildcard("xb", "*b*b"));
}

TEST(McpNames, WhitelistAloneAdmitsWhatItMatchesAndWithABlacklistItOverridesIt) {
  config::mcp_name_filter only;
  only.whitelist = {"read_*"};
  EXPECT_TRUE(decide_exposure("read_file", only).accepted);
  const auto refused = decide_exposure("write_file", only);
  EXPECT_FALSE(refused.accepted);
  EXPECT_EQ(refused.why, "not in the whitelist (read_*)");

  config::mcp_name_filter both;
  both.whitelist = {"write_notes"};
  both.blacklist = {"write_*"};
  EXPECT_TRUE(decide_exposure("write_notes", both).accepted);
  EXPECT_EQ(decide_exposure("write_file", both).why, "blacklisted by 'write_*'");
  EXPECT_TRUE(decide_exposure("read_file", both).accepted) << "neither listed: accepted";
}

TEST(McpNames, TransformsApplyInOrderAndAKindsOwnReplacesTheServers) {
  const std::vector<transform> steps{{transform::kind::prefix_add, "", "fs_"},
                                     {transform::kind::prefix_replace, "fs_x_", "y_"},
                                     {transform::kind::suffix_add, "", "_1"}};
  EXPECT_EQ(apply_transforms("x_read", steps), "y_read_1");
  EXPECT_EQ(apply_transforms("read", steps), "y_fs_read_1");

  config::mcp_server_config server;
  server.transform = {{transform::kind::prefix_add, "", "srv_"}};
  EXPECT_EQ(apply_transforms("t", transforms_for(server, server.tools)), "srv_t");
  server.tools.transform = std::vector<transform>{};
  EXPECT_EQ(apply_transforms("t", transforms_for(server, server.tools)), "t");
}

TEST(McpNames, ResourceIdsAreDominds) {
  EXPECT_EQ(stable_id("demo://resource/static/document/architecture.md"),
            "demo_resource_static_document_architecture_md");
  EXPECT_EQ(stable_id("__a b__"), "a_b");
  EXPECT_EQ(stable_id("://"), "resource");
}

TEST(McpUriTemplates, VariablesAndExpansionAsDomindsExpandsThem) {
  EXPECT_EQ(template_variables("demo://x/{id}/{+path}{?q,lang}").value(),
            (std::vector<std::string>{"id", "lang", "path", "q"}));
  const std::map<std::string, std::string> values{{"id", "a b"}, {"path", "x/y z"}, {"q", "1&2"}, {"lang", "en"}};
  EXPECT_EQ(expand_uri_template("demo://x/{id}/{+path}{?q,lang}", values).value(),
            "demo://x/a%20b/x/y%20z?q=1%262&lang=en");
  EXPECT_EQ(expand_uri_template("f{/id}{.lang}{;q}{#path}", values).value(), "f/a%20b.en;q=1%262#x/y%20z");
  auto missing = expand_uri_template("x/{other}", values);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.err().message, "missing resource template argument 'other'");
  EXPECT_FALSE(template_variables("x/{}"));
}

content_block text(std::string words) {
  content_block block;
  block.text = std::move(words);
  return block;
}

content_block image(std::string mime, std::string data) {
  content_block block;
  block.what = content_block::kind::image;
  block.mime_type = std::move(mime);
  block.data = std::move(data);
  return block;
}

TEST(McpOutcome, TextIsJoinedAndAnImageIsGivenToAModelThatSees) {
  tool_call_result result;
  result.content = {text("one"), image("image/png", "iVBORw0KGgo="), text("two"), image("image/png", "AAAA")};
  const auto seen = outcome_of(result, true);
  EXPECT_TRUE(seen.ok);
  ASSERT_EQ(seen.media.size(), 1u);
  EXPECT_EQ(seen.media[0].format, "png");
  EXPECT_EQ(seen.content, "one\n\ntwo\n\n[image image/png, 3 bytes: not shown, as a tool result carries one image]");
  const auto blind = outcome_of(result, false);
  EXPECT_TRUE(blind.media.empty());
  EXPECT_NE(blind.content.find("not shown, as this member's model does not take images"), std::string::npos);
}

TEST(McpOutcome, ImagesAModelCannotTakeOrThatAreNotBase64AreNamedNotSent) {
  tool_call_result result;
  result.content = {image("image/svg+xml", "AAAA"), image("image/png", "not base64!")};
  const auto seen = outcome_of(result, true);
  EXPECT_TRUE(seen.media.empty());
  EXPECT_NE(seen.content.find("models take only PNG, JPEG, GIF and WebP"), std::string::npos);
  EXPECT_NE(seen.content.find("its data is not valid base64"), std::string::npos);
}

TEST(McpOutcome, ResourcesAreNamedByUriStructuredContentStandsInForTextAndIsErrorFails) {
  tool_call_result result;
  content_block link;
  link.what = content_block::kind::resource_link;
  link.uri = "file:///a.txt";
  link.name = "a";
  content_block embedded;
  embedded.what = content_block::kind::resource;
  embedded.uri = "test://r";
  embedded.mime_type = "text/plain";
  embedded.text = "inside";
  result.content = {link, embedded};
  result.structured_content = boost::json::object{{"sum", 3}};
  result.is_error = true;
  const auto seen = outcome_of(result, false);
  EXPECT_FALSE(seen.ok);
  EXPECT_EQ(seen.content,
            "[resource link: file:///a.txt (a)]\n\n[resource test://r (text/plain)]\ninside\n\n{\"sum\":3}");
  EXPECT_EQ(outcome_of(tool_call_result{}, false).content, "(the tool returned no content)");
}

TEST(McpOutcome, AFailedCallSaysWhatTheModelCanDo) {
  const auto big = failed_call(make_error(errc::limit_exceeded,
                                          "MCP server 'x' returned a result of 9 bytes, more "
                                          "than the limit of 1 (max_result_bytes)"),
                               "t");
  EXPECT_FALSE(big.ok);
  EXPECT_NE(big.content.find("tool 't' failed: MCP server 'x' returned"), std::string::npos);
  EXPECT_NE(big.content.find("Ask for less at once"), std::string::npos);
  const auto slow = failed_call(make_error(errc::limit_exceeded, "MCP server 'x' did not answer (call_timeout)"), "t");
  EXPECT_NE(slow.content.find("try again with less work"), std::string::npos);
  const auto down = failed_call(make_error(errc::unavailable, "MCP server 'x' is restarting after: boom"), "t");
  EXPECT_NE(down.content.find("try again later"), std::string::npos);
}

}  // namespace
}  // namespace parley::tools::mcp
