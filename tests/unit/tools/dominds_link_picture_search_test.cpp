// Dominds' tools that issue 46 item 3 had left out, beyond the edits: ripgrep_search (rg flags from
// an allowlist, the others refused by name), read_symlink / create_symlink (made only where the
// member may write, to what it may read; a link is no way around the write rules afterwards),
// write_picture (strict base64, a size bound, the write rules), and their team_mgmt twins.
#include <gtest/gtest.h>

#include "access_globs.hpp"
#include "parley/core/base64.hpp"
#include "parley/tools/dominds_rg_args.hpp"
#include "parley/tools/dominds_tools.hpp"
#include "workspace_fixture.hpp"

namespace parley::tools::testing {
namespace {

bool link_answer_has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

class DomindsLinkPictureSearch : public workspace_fixture {
 protected:
  void SetUp() override {
    workspace_fixture::SetUp();
    register_dominds_tools(registry_);
    ctx_.member_id = "dev";
    ctx_.dialog_id = "d1";
  }
};

TEST_F(DomindsLinkPictureSearch, RipgrepSearchTakesAllowedRgFlags) {
  put("src/a.cpp", "int Needle;\nneedle_2\n");
  put("src/b.h", "needle\n");
  const auto out = call("ripgrep_search", R"({"pattern":"needle","rg_args":["-iw","--glob","*.cpp"]})");
  ASSERT_TRUE(out.ok) << out.content;
  EXPECT_TRUE(link_answer_has(out.content, "mode: snippets")) << out.content;
  EXPECT_TRUE(link_answer_has(out.content, "  - path: 'src/a.cpp'\n    line: 1\n    match: 'int Needle;'"))
      << out.content;
  EXPECT_FALSE(link_answer_has(out.content, "needle_2")) << out.content;  // -w
  EXPECT_FALSE(link_answer_has(out.content, "b.h")) << out.content;       // --glob
  const auto context = call("ripgrep_search", R"({"pattern":"needle_2","path":"src","rg_args":["-B1"]})");
  EXPECT_TRUE(link_answer_has(context.content, "before: ['int Needle;']")) << context.content;
}

TEST_F(DomindsLinkPictureSearch, RipgrepSearchRefusesOtherFlagsByName) {
  put("a.txt", "x\n");
  const auto pre = call("ripgrep_search", R"({"pattern":"x","rg_args":["--pre","cat"]})");
  EXPECT_FALSE(pre.ok);
  EXPECT_TRUE(link_answer_has(pre.content, "error: DISALLOWED_ARG")) << pre.content;
  EXPECT_TRUE(link_answer_has(pre.content, "rg_args: ''--pre'' is refused: it runs a program")) << pre.content;
  EXPECT_TRUE(
      link_answer_has(call("ripgrep_search", R"({"pattern":"x","rg_args":["-z"]})").content, "''-z'' is refused"));
  EXPECT_TRUE(link_answer_has(call("ripgrep_search", R"({"pattern":"x","rg_args":["--ignore-file=../r"]})").content,
                              "''--ignore-file'' is refused"));
  EXPECT_TRUE(
      link_answer_has(call("ripgrep_search", R"({"pattern":"x","rg_args":["-L"]})").content, "''-L'' is refused"));
  EXPECT_TRUE(link_answer_has(call("ripgrep_search", R"({"pattern":"x","rg_args":["--no-ignore"]})").content,
                              "''--no-ignore'' is not one ripgrep_search takes"));
  EXPECT_TRUE(
      link_answer_has(call("ripgrep_search", R"({"pattern":"x","rg_args":["/etc"]})").content, "is not a flag"));
  EXPECT_TRUE(link_answer_has(call("ripgrep_search", R"({"pattern":"x","rg_args":["-C","many"]})").content,
                              "needs a number of lines"));
  auto parsed = dominds_detail::read_rg_args({"-S", "--type", "cpp", "-T=x"});
  EXPECT_FALSE(parsed);  // -T takes its value apart, not after '='
  parsed = dominds_detail::read_rg_args({"-S", "--type", "cpp", "--type-not=h", "-C", "99", "-n", "--color=never"});
  ASSERT_TRUE(parsed) << parsed.err().message;
  EXPECT_EQ(parsed->vetted_flags, (std::vector<std::string>{"--type=cpp", "--type-not=h"}));
  EXPECT_EQ(parsed->before, 10);
  EXPECT_EQ(*parsed->case_mode, "smart");
}

TEST_F(DomindsLinkPictureSearch, RipgrepSearchKeepsToTheReadRules) {
  access::access_rules rules;
  rules.read.deny_dirs = globs({"secrets"});
  ctx_.access = &rules;
  put("secrets/k.txt", "needle\n");
  put("src/a.txt", "needle\n");
  const auto all = call("ripgrep_search", R"({"pattern":"needle","rg_args":["--hidden"]})");
  EXPECT_TRUE(link_answer_has(all.content, "src/a.txt")) << all.content;
  EXPECT_FALSE(link_answer_has(all.content, "secrets/k.txt")) << all.content;
  const auto inside = call("ripgrep_search", R"({"pattern":"needle","path":"secrets"})");
  EXPECT_FALSE(inside.ok);
  EXPECT_FALSE(link_answer_has(inside.content, "k.txt:")) << inside.content;
}

TEST_F(DomindsLinkPictureSearch, SymlinksAreMadeWhereWritableToWhatIsReadable) {
  put("src/a.c", "int a;\n");
  fs::create_directories(workspace_ / "out");
  const auto made = call("create_symlink", R"({"path":"out/src","target":"../src","symlink_type":"dir"})");
  ASSERT_TRUE(made.ok) << made.content;
  EXPECT_TRUE(
      link_answer_has(made.content, "mode: create_symlink\npath: 'out/src'\ntarget: '../src'\nsymlink_type: 'dir'"))
      << made.content;
  EXPECT_EQ(fs::read_symlink(workspace_ / "out" / "src"), "../src");
  const auto read = call("read_symlink", R"({"path":"out/src"})");
  ASSERT_TRUE(read.ok) << read.content;
  EXPECT_TRUE(link_answer_has(read.content, "target: '../src'")) << read.content;
  EXPECT_TRUE(link_answer_has(call("read_symlink", R"({"path":"src/a.c"})").content, "error: NOT_SYMLINK"));
  EXPECT_TRUE(
      link_answer_has(call("create_symlink", R"({"path":"out/src","target":"x"})").content, "error: PATH_EXISTS"));
  EXPECT_TRUE(
      link_answer_has(call("create_symlink", R"({"path":"none/l","target":"x"})").content, "error: PARENT_NOT_DIR"));
  const auto outside = call("create_symlink", R"({"path":"out/up","target":"../../.."})");
  EXPECT_TRUE(link_answer_has(outside.content, "leads outside the workspace")) << outside.content;
  const auto absolute = call("create_symlink", R"({"path":"out/etc","target":"/etc"})");
  EXPECT_TRUE(link_answer_has(absolute.content, "target: must be relative")) << absolute.content;
  const auto minds = call("create_symlink", R"({"path":"out/m","target":"../.minds"})");
  EXPECT_FALSE(minds.ok) << minds.content;
  EXPECT_FALSE(fs::exists(fs::symlink_status(workspace_ / "out" / "up")));
  EXPECT_FALSE(fs::exists(fs::symlink_status(workspace_ / "out" / "etc")));
  EXPECT_FALSE(fs::exists(fs::symlink_status(workspace_ / "out" / "m")));
  // A link to nothing (yet) may be made, and removed again: rm_symlink judges the link, not its target.
  ASSERT_TRUE(call("create_symlink", R"({"path":"out/gone","target":"../nothing"})").ok);
  const auto removed = call("rm_symlink", R"({"path":"out/gone"})");
  ASSERT_TRUE(removed.ok) << removed.content;
  EXPECT_TRUE(link_answer_has(removed.content, "status: ok\nmode: rm_symlink\npath: 'out/gone'")) << removed.content;
  EXPECT_FALSE(fs::exists(fs::symlink_status(workspace_ / "out" / "gone")));
  EXPECT_TRUE(link_answer_has(call("rm_symlink", R"({"path":"src/a.c"})").content, "error: WRONG_TYPE"));
}

TEST_F(DomindsLinkPictureSearch, ALinkIsNoWayAroundTheAccessRules) {
  access::access_rules rules;
  rules.read.deny_dirs = globs({"secrets"});
  rules.write.deny_dirs = globs({"src"});
  ctx_.access = &rules;
  put("src/a.c", "int a;\n");
  put("secrets/k.txt", "k\n");
  fs::create_directories(workspace_ / "out");
  const auto to_secret = call("create_symlink", R"({"path":"out/k","target":"../secrets/k.txt"})");
  EXPECT_FALSE(to_secret.ok);
  EXPECT_TRUE(link_answer_has(to_secret.content, "not readable for you")) << to_secret.content;
  EXPECT_FALSE(fs::exists(fs::symlink_status(workspace_ / "out" / "k")));
  const auto in_src = call("create_symlink", R"({"path":"src/l","target":"a.c"})");
  EXPECT_TRUE(link_answer_has(in_src.content, "not writable for you")) << in_src.content;
  EXPECT_FALSE(fs::exists(fs::symlink_status(workspace_ / "src" / "l")));
  // A link to a readable folder the member may not write: allowed, and every write through it refused.
  ASSERT_TRUE(call("create_symlink", R"({"path":"out/src","target":"../src"})").ok);
  ASSERT_TRUE(call("create_symlink", R"({"path":"out/a.c","target":"../src/a.c"})").ok);
  EXPECT_FALSE(call("create_new_file", R"({"path":"out/src/pwn.c","content":"x"})").ok);
  EXPECT_FALSE(fs::exists(workspace_ / "src" / "pwn.c"));
  EXPECT_FALSE(call("overwrite_entire_file", R"({"path":"out/a.c","content":"pwn"})").ok);
  EXPECT_FALSE(call("file_append", R"({"path":"out/a.c","content":"pwn"})").ok);
  const std::string gif = base64_encode(std::string("GIF89a\x01\x00\x01\x00\x00\x00\x00,", 13));
  const auto picture = call("write_picture", R"({"path":"out/src/p.gif","data_base64":")" + gif + R"("})");
  EXPECT_TRUE(link_answer_has(picture.content, "not writable for you")) << picture.content;
  EXPECT_FALSE(fs::exists(workspace_ / "src" / "p.gif"));
  EXPECT_EQ(contents("src/a.c"), "int a;\n");
  // Removing a link in a writable folder leaves its target alone; one in src/ stays.
  ASSERT_TRUE(call("rm_symlink", R"({"path":"out/src"})").ok);
  EXPECT_EQ(contents("src/a.c"), "int a;\n");
  fs::create_symlink("a.c", workspace_ / "src" / "l2");
  EXPECT_TRUE(link_answer_has(call("rm_symlink", R"({"path":"src/l2"})").content, "error: ACCESS_DENIED"));
  EXPECT_TRUE(fs::is_symlink(workspace_ / "src" / "l2"));
  // A link made before the rules changed: its target is judged on every read.
  fs::create_symlink("../secrets", workspace_ / "out" / "s");
  EXPECT_FALSE(call("read_file", R"({"path":"out/s/k.txt"})").ok);
  // read_symlink reads where the member may read; write_picture writes where it may write.
  fs::create_symlink("k.txt", workspace_ / "secrets" / "l");
  const auto hidden = call("read_symlink", R"({"path":"secrets/l"})");
  EXPECT_TRUE(link_answer_has(hidden.content, "error: ACCESS_DENIED")) << hidden.content;
  EXPECT_FALSE(link_answer_has(hidden.content, "target:")) << hidden.content;
  EXPECT_TRUE(link_answer_has(call("read_symlink", R"({"path":"out/s"})").content, "target: '../secrets'"));
  const auto direct = call("write_picture", R"({"path":"src/p.gif","data_base64":")" + gif + R"("})");
  EXPECT_TRUE(link_answer_has(direct.content, "not writable for you")) << direct.content;
  EXPECT_FALSE(fs::exists(workspace_ / "src" / "p.gif"));
}

TEST_F(DomindsLinkPictureSearch, WritePictureDecodesStrictlyAndKeepsToTheRules) {
  const std::string gif("GIF89a\x01\x00\x01\x00\x00\x00\x00,", 13);
  const std::string data = base64_encode(gif);
  const auto out =
      call("write_picture", R"({"path":"img/p.gif","data_base64":"data:image/gif;base64,)" + data + R"("})");
  ASSERT_TRUE(out.ok) << out.content;
  EXPECT_TRUE(link_answer_has(out.content,
                              "status: ok\naction: write_picture\npath: 'img/p.gif'\nmime_type: 'image/gif'\n"
                              "byte_length: 13"))
      << out.content;
  EXPECT_EQ(contents("img/p.gif"), gif);
  const auto again = call("write_picture", R"({"path":"img/p.gif","data_base64":")" + data + R"("})");
  EXPECT_TRUE(link_answer_has(again.content, "File already exists")) << again.content;
  EXPECT_TRUE(call("write_picture", R"({"path":"img/p.gif","overwrite":true,"data_base64":")" + data + R"("})").ok);
  const auto loose = call("write_picture", R"({"path":"img/q.gif","data_base64":"R0lG*ODlh"})");
  EXPECT_TRUE(link_answer_has(loose.content, "data_base64: not strict base64")) << loose.content;
  const auto wrong_kind = call("write_picture", R"({"path":"img/q.png","data_base64":")" + data + R"("})");
  EXPECT_TRUE(link_answer_has(wrong_kind.content, "the bytes are image/gif, but the path says image/png"))
      << wrong_kind.content;
  const auto mime =
      call("write_picture", R"({"path":"img/q.gif","mime_type":"image/png","data_base64":")" + data + R"("})");
  EXPECT_TRUE(link_answer_has(mime.content, "mime_type: image/png does not match")) << mime.content;
  const auto text = call("write_picture", R"({"path":"img/q.txt","data_base64":")" + data + R"("})");
  EXPECT_TRUE(link_answer_has(text.content, "path: the extension must be")) << text.content;
  const std::string huge(8 * 1024 * 1024, 'A');
  const auto big = call("write_picture", R"({"path":"img/q.gif","data_base64":")" + huge + R"("})");
  EXPECT_TRUE(link_answer_has(big.content, "larger than")) << big.content;
  EXPECT_FALSE(fs::exists(workspace_ / "img" / "q.gif"));
  EXPECT_FALSE(fs::exists(workspace_ / "img" / "q.png"));
  ctx_.takes_images = true;
  const std::string png = std::string("\x89PNG\r\n\x1a\n", 8) + std::string("\0\0\0\rIHDR tiny", 14);
  const auto seen = call("write_picture", R"({"path":"p.png","data_base64":")" + base64_encode(png) + R"("})");
  ASSERT_TRUE(seen.ok) << seen.content;
  ASSERT_EQ(seen.media.size(), 1U);
  EXPECT_EQ(seen.media[0].mime, "image/png");
  EXPECT_TRUE(link_answer_has(seen.content, "llm_context: image_attached")) << seen.content;
}

constexpr std::string_view kLinkLlm =
    "providers:\n  local:\n    apiType: openai-compatible\n"
    "    baseUrl: http://127.0.0.1:1/v1\n    apiKeyEnvVar: LOCAL_KEY\n"
    "    models:\n      m: {}\n";
constexpr std::string_view kLinkTeam = "member_defaults:\n  provider: local\n  model: m\nmembers:\n  alice: {}\n";

TEST_F(DomindsLinkPictureSearch, TeamMgmtTwinsStayInsideMinds) {
  put(".minds/llm.yaml", std::string(kLinkLlm));
  put(".minds/team.yaml", std::string(kLinkTeam));
  put(".minds/skills/linkable/fmt/SKILL.md", "---\nname: Fmt\ndescription: Formats.\n---\nRun the formatter.\n");
  put("secret.txt", "s\n");
  fs::create_directories(workspace_ / ".minds" / "skills" / "individual" / "alice");
  const auto made =
      call("team_mgmt_create_symlink", R"({"path":"skills/individual/alice/fmt","target":"../../linkable/fmt"})");
  ASSERT_TRUE(made.ok) << made.content;
  EXPECT_TRUE(fs::is_symlink(workspace_ / ".minds" / "skills" / "individual" / "alice" / "fmt"));
  const auto read = call("team_mgmt_read_symlink", R"({"path":".minds/skills/individual/alice/fmt"})");
  EXPECT_TRUE(link_answer_has(read.content, "target: '../../linkable/fmt'")) << read.content;
  const auto out = call("team_mgmt_create_symlink", R"({"path":"leak","target":"../secret.txt"})");
  EXPECT_FALSE(out.ok);
  EXPECT_TRUE(link_answer_has(out.content, "leads outside the workspace")) << out.content;
  EXPECT_FALSE(fs::exists(fs::symlink_status(workspace_ / ".minds" / "leak")));
  const auto removed = call("team_mgmt_rm_symlink", R"({"path":"skills/individual/alice/fmt"})");
  ASSERT_TRUE(removed.ok) << removed.content;
  EXPECT_FALSE(fs::exists(fs::symlink_status(workspace_ / ".minds" / "skills" / "individual" / "alice" / "fmt")));
  EXPECT_TRUE(fs::exists(workspace_ / ".minds" / "skills" / "linkable" / "fmt" / "SKILL.md"));
  const auto found = call("team_mgmt_ripgrep_search", R"({"pattern":"alice","rg_args":["-F"]})");
  EXPECT_TRUE(link_answer_has(found.content, "path: 'team.yaml'")) << found.content;
  EXPECT_FALSE(link_answer_has(call("ripgrep_search", R"({"pattern":"alice"})").content, "team.yaml"));
}

}  // namespace
}  // namespace parley::tools::testing
