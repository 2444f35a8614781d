// Dominds' scratch pads (issue 46, item 3): a `.minds/` member with ws_mod calls the eight pad_*
// tools under Dominds' names and arguments; answers are Dominds' YAML; a bad argument is named and
// changes nothing; a pad is one of the dialog's reminders, so the next prompt shows it and a reload
// of the dialog from the store brings it back.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "parley/config/team.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/dominds_pads.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/scratch_pad.hpp"
#include "parley/engine/team_problems.hpp"
#include "parley/store/store.hpp"
#include "unit/config/temp_tree.hpp"
#include "unit/dominds/scripted_minds_run.hpp"

namespace parley::engine {
namespace {

bool has_text(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

std::string pad_test_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<scratch_pad> pads_of(const std::vector<std::string>& reminders) {
  std::vector<scratch_pad> pads;
  for (const auto& reminder : reminders) {
    if (auto pad = parse_pad(reminder)) pads.push_back(std::move(*pad));
  }
  return pads;
}

const scratch_pad* pad_named(const std::vector<scratch_pad>& pads, std::string_view id) {
  const auto it = std::find_if(pads.begin(), pads.end(), [&](const scratch_pad& pad) { return pad.id == id; });
  return it == pads.end() ? nullptr : &*it;
}

// Round 1 calls every tool, then writes files from pads; round 2 answers "PAD SHOWN" only when the prompt shows the
// notes pad.
constexpr std::string_view kPadScript = R"(members:
  dev:
    - when: {round: 1}
      emit:
        - tool_call: {name: pad_write, arguments: {pad_id: notes, content: "alpha\nbeta\n", intent: "Draft the notes", completion: "when merged"}}
        - tool_call: {name: pad_write, arguments: {pad_id: notes, content: "x", mode: create}}
        - tool_call: {name: pad_write, arguments: {pad_id: "bad id!", content: "x"}}
        - tool_call: {name: pad_load_file_range, arguments: {pad_id: src, path: src/a.txt, range: "2~3"}}
        - tool_call: {name: pad_load_file_range, arguments: {pad_id: sec, path: secrets/key.txt}}
        - tool_call: {name: pad_edit, arguments: {pad_id: notes, range: "2", content: "BETA"}}
        - tool_call: {name: pad_edit, arguments: {pad_id: notes, range: "5~9", content: "x"}}
        - tool_call: {name: pad_insert, arguments: {pad_id: notes, line: 1, content: "first\n"}}
        - tool_call: {name: pad_insert, arguments: {pad_id: ghost, line: 1, content: "x"}}
        - tool_call: {name: pad_copy, arguments: {from_pad_id: notes, from_range: "2~3", to_pad_id: copy}}
        - tool_call: {name: pad_move, arguments: {from_pad_id: src, from_range: "1", to_pad_id: notes, to_range: "4~"}}
        - tool_call: {name: pad_move, arguments: {from_pad_id: notes, to_pad_id: notes}}
        - tool_call: {name: pad_delete_range, arguments: {pad_id: copy, range: "1"}}
        - tool_call: {name: pad_write, arguments: {pad_id: scrap, content: "gone"}}
        - tool_call: {name: pad_delete, arguments: {pad_id: scrap}}
        - tool_call: {name: pad_delete, arguments: {pad_id: scrap}}
        - tool_call: {name: update_reminder, arguments: {reminder_id: "1", content: "overwritten"}}
        - tool_call: {name: create_new_file, arguments: {path: out/notes.txt, pad_id: notes}}
        - tool_call: {name: overwrite_entire_file, arguments: {path: src/a.txt, known_old_total_lines: 3, known_old_total_bytes: 14, pad_id: copy, pad_range: "1"}}
        - tool_call: {name: create_new_file, arguments: {path: out/both.txt, pad_id: notes, content: "both"}}
        - tool_call: {name: create_new_file, arguments: {path: out/ghost.txt, pad_id: ghost}}
        - tool_call: {name: file_append, arguments: {path: out/notes.txt, pad_id: copy}}
        - tool_call: {name: file_range_edit, arguments: {path: out/notes.txt, range: "1", pad_id: src}}
    - when: {round: 2, system: "   4| two"}
      emit: [{saying: "PAD SHOWN"}]
    - emit: [{saying: "no pad in the prompt"}]
)";

class DomindsPads : public ::testing::Test {
 protected:
  void SetUp() override {
    tree_.write(".minds/llm.yaml", "providers:\n  local:\n    apiType: openai-compatible\n    models: [m]\n");
    tree_.write(".minds/team.yaml",
                "member_defaults:\n  provider: local\n  model: m\n  diligence-push-max: 0\nmembers:\n  dev:\n"
                "    toolsets: [ws_mod]\n"
                "    no_read_dirs: [secrets]\n");
    tree_.write("src/a.txt", "one\ntwo\nthree\n");
    tree_.write("secrets/key.txt", "hunter2\n");
  }
  config::team_config team() {
    auto team = config::load_dominds_workspace(tree_.root());
    EXPECT_TRUE(team) << team.err().message;
    settle_team_problems(*team, build_builtin_tools(*team));
    return *std::move(team);
  }
  config::testing::temp_tree tree_;
};

TEST_F(DomindsPads, EachPadToolWorksUnderItsDomindsNameAndArguments) {
  auto run = testing::run_scripted_minds_dialog(tree_, team(), kPadScript);
  ASSERT_NE(run.eng, nullptr);
  const auto results = run.tool_results();
  ASSERT_EQ(results.size(), 23U) << ::testing::PrintToString(results);
  EXPECT_EQ(results[0], "```yaml\nstatus: ok\nmode: pad_write\npad_id: 'notes'\nsummary: 'pad_id=notes written'\n```");
  EXPECT_TRUE(has_text(results[1], "error: PAD_ALREADY_EXISTS")) << results[1];
  EXPECT_TRUE(has_text(results[2], "error: INVALID_ARGS\nsummary: 'pad_id: ''bad id!'' is not a pad id")) << results[2];
  EXPECT_TRUE(has_text(results[3], "summary: 'loaded src/a.txt:2~3 into pad_id=src'\nnotice: PAD_INTENT_MISSING"))
      << results[3];
  EXPECT_TRUE(has_text(results[4], "error: ACCESS_DENIED")) << results[4];
  EXPECT_FALSE(has_text(results[4], "hunter2")) << results[4];
  EXPECT_TRUE(has_text(results[5], "summary: 'edited pad_id=notes'")) << results[5];
  EXPECT_TRUE(has_text(results[6], "range: ''5~9'' is out of bounds: the pad has 2 lines")) << results[6];
  EXPECT_TRUE(has_text(results[7], "summary: 'inserted text before line 1 in pad_id=notes'")) << results[7];
  EXPECT_TRUE(has_text(results[8], "error: PAD_NOT_FOUND\nsummary: 'pad_id=ghost does not exist'")) << results[8];
  EXPECT_TRUE(has_text(results[9], "summary: 'copied notes:2~3 to copy:~'")) << results[9];
  EXPECT_FALSE(has_text(results[9], "PAD_INTENT_MISSING")) << results[9];  // the copy keeps the notes' intent
  EXPECT_TRUE(has_text(results[10], "summary: 'moved src:1 to notes:4~'")) << results[10];
  EXPECT_TRUE(has_text(results[11], "error: SAME_PAD_MOVE_UNSUPPORTED")) << results[11];
  EXPECT_TRUE(has_text(results[12], "summary: 'deleted range in pad_id=copy'")) << results[12];
  EXPECT_TRUE(has_text(results[14], "summary: 'deleted pad_id=scrap'")) << results[14];
  EXPECT_TRUE(has_text(results[15], "error: PAD_NOT_FOUND")) << results[15];
  EXPECT_EQ(results[16],
            "Error: This reminder cannot be edited via update_reminder. Follow instead: Use "
            "pad_write/pad_edit/pad_load_file_range with pad_id=\"notes\".");

  // create_new_file and overwrite_entire_file take their text from a pad.
  EXPECT_TRUE(has_text(results[17],
                       "status: ok\nmode: create_new_file\npath: 'out/notes.txt'\nsource: pad\npad_id: "
                       "'notes'\npad_range: '~'\n"))
      << results[17];
  EXPECT_TRUE(has_text(results[17], "pad_selected_lines: 4\n")) << results[17];
  EXPECT_TRUE(has_text(results[21], "source: pad\npad_id: 'copy'")) << results[21];
  EXPECT_TRUE(has_text(results[22], "source: pad\npad_id: 'src'")) << results[22];
  // Written from notes, appended from copy, its first line replaced from src.
  EXPECT_EQ(pad_test_file(tree_.root() / "out/notes.txt"), "three\nalpha\nBETA\ntwo\nBETA\n");
  EXPECT_TRUE(has_text(results[18], "source: pad\npad_id: 'copy'\npad_range: '1'\n")) << results[18];
  EXPECT_EQ(pad_test_file(tree_.root() / "src/a.txt"), "BETA\n");
  EXPECT_TRUE(has_text(results[19], "error: INVALID_ARGS\nsummary: 'Provide either `content` or `pad_id`, not both'"))
      << results[19];
  EXPECT_TRUE(has_text(results[20], "error: PAD_NOT_FOUND")) << results[20];
  EXPECT_FALSE(std::filesystem::exists(tree_.root() / "out/both.txt"));
  EXPECT_FALSE(std::filesystem::exists(tree_.root() / "out/ghost.txt"));

  const dialog_runtime* dialog = run.eng->find(run.id);
  ASSERT_NE(dialog, nullptr);
  const auto pads = pads_of(dialog->state().reminders);
  ASSERT_EQ(pads.size(), 3U) << ::testing::PrintToString(dialog->state().reminders);
  const auto* notes = pad_named(pads, "notes");
  ASSERT_NE(notes, nullptr);
  EXPECT_EQ(notes->lines, (std::vector<std::string>{"first", "alpha", "BETA", "two"}));
  EXPECT_EQ(notes->intent, "Draft the notes");
  EXPECT_EQ(notes->completion, "when merged");
  const auto* src = pad_named(pads, "src");
  ASSERT_NE(src, nullptr);
  EXPECT_EQ(src->lines, (std::vector<std::string>{"three"}));
  EXPECT_EQ(src->source_note, "Loaded from src/a.txt range 2~3");
  const auto* copy = pad_named(pads, "copy");
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->lines, (std::vector<std::string>{"BETA"}));
  EXPECT_EQ(copy->intent, "Draft the notes");
  EXPECT_EQ(pad_named(pads, "sec"), nullptr);  // refused: nothing made
  EXPECT_EQ(pad_named(pads, "scrap"), nullptr);

  // What the model is told: the next prompt shows the pad's display block.
  std::string last_prompt;
  for (const auto& ev : run.log->read_events(run.id).value()) {
    if (const auto* logged = std::get_if<events::prompt_logged>(&ev.payload)) last_prompt = logged->system_prompt;
  }
  EXPECT_TRUE(has_text(last_prompt, "[Scratch Pad]\npad_id: notes\nintent: Draft the notes\ncompletion: when merged\n"))
      << last_prompt;
  EXPECT_TRUE(has_text(last_prompt, "```text\n   1| first\n   2| alpha\n   3| BETA\n   4| two\n```")) << last_prompt;
  const auto messages = run.log->messages(run.id, 1).value();
  ASSERT_FALSE(messages.empty());
  EXPECT_EQ(messages.back().content, "PAD SHOWN");
}

TEST_F(DomindsPads, PadsComeBackWhenTheDialogIsLoadedFromTheStore) {
  auto run = testing::run_scripted_minds_dialog(tree_, team(), kPadScript);
  ASSERT_NE(run.eng, nullptr);
  const std::vector<std::string> kept = run.eng->find(run.id)->state().reminders;
  // A second engine on the same log, as after a restart: it reads the dialog from the store.
  auto again = team();
  for (auto& provider : again.providers) {
    provider = config::provider_config{};
    provider.id = "local";
    provider.kind = config::provider_kind::scripted;
    provider.script = tree_.root() / "script.yaml";
  }
  auto providers = build_providers(again);
  ASSERT_TRUE(providers) << providers.err().message;
  auto tools = build_builtin_tools(again);
  boost::asio::io_context io;
  auto restarted =
      engine::create(io.get_executor(), *run.log, std::move(again), std::move(*providers), std::move(tools));
  ASSERT_TRUE(restarted) << restarted.err().message;
  auto loaded = (*restarted)->dialogs().load(run.id);
  ASSERT_TRUE(loaded) << loaded.err().message;
  EXPECT_EQ((*loaded)->state().reminders, kept);
  const auto pads = pads_of((*loaded)->state().reminders);
  ASSERT_EQ(pads.size(), 3U);
  ASSERT_NE(pad_named(pads, "notes"), nullptr);
  EXPECT_EQ(pad_named(pads, "notes")->lines, (std::vector<std::string>{"first", "alpha", "BETA", "two"}));
}

constexpr std::string_view kPadBoundsScript = R"(members:
  dev:
    - when: {round: 1}
      emit:
        - tool_call: {name: pad_load_file_range, arguments: {pad_id: big, path: big.txt}}
        - tool_call: {name: pad_load_file_range, arguments: {pad_id: big, path: big.txt, range: "1~10"}}
        - tool_call: {name: delete_reminder, arguments: {reminder_id: "1"}}
        - tool_call: {name: pad_load_file_range, arguments: {pad_id: nope, path: missing.txt}}
        - tool_call: {name: pad_write, arguments: {pad_id: w, content: "a", mode: append}}
        - tool_call: {name: pad_copy, arguments: {from_pad_id: big, to_pad_id: fresh, to_range: "2~3"}}
    - emit: [{saying: "Done."}]
)";

TEST_F(DomindsPads, ATooLargePadAndOtherRefusalsChangeNothing) {
  std::string big;  // 300,000 bytes: more than a pad may hold
  for (int i = 0; i < 3000; ++i) big += std::string(99, 'z') + "\n";
  tree_.write("big.txt", big);
  auto run = testing::run_scripted_minds_dialog(tree_, team(), kPadBoundsScript);
  ASSERT_NE(run.eng, nullptr);
  const auto results = run.tool_results();
  ASSERT_EQ(results.size(), 6U) << ::testing::PrintToString(results);
  EXPECT_TRUE(has_text(results[0], "error: PAD_TOO_LARGE")) << results[0];
  EXPECT_TRUE(has_text(results[1], "status: ok")) << results[1];
  EXPECT_EQ(
      results[2],
      "Error: This reminder cannot be deleted via delete_reminder. Use instead: pad_delete({ \"pad_id\": \"big\" })");
  EXPECT_TRUE(has_text(results[3], "error: FILE_NOT_FOUND")) << results[3];
  EXPECT_TRUE(has_text(results[4], "error: PAD_NOT_FOUND")) << results[4];
  EXPECT_TRUE(has_text(results[5], "error: PAD_NOT_FOUND\nsummary: 'Target pad does not exist")) << results[5];
  const auto pads = pads_of(run.eng->find(run.id)->state().reminders);
  ASSERT_EQ(pads.size(), 1U);
  EXPECT_EQ(pads[0].id, "big");
  EXPECT_EQ(pads[0].lines.size(), 10U);
}

TEST_F(DomindsPads, AMemberWithoutWsModIsNotOfferedPads) {
  tree_.write(".minds/team.yaml",
              "member_defaults:\n  provider: local\n  model: m\n  diligence-push-max: 0\nmembers:\n  dev:\n"
              "    toolsets: [ws_read]\n");
  auto run = testing::run_scripted_minds_dialog(
      tree_, team(),
      "members:\n  dev:\n    - when: {round: 1}\n      emit:\n        - tool_call: {name: pad_write, arguments: "
      "{pad_id: a, content: x}}\n    - emit: [{saying: Done.}]\n");
  ASSERT_NE(run.eng, nullptr);
  const auto results = run.tool_results();
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0], "tool 'pad_write' is not available in this dialog");
  EXPECT_TRUE(run.eng->find(run.id)->state().reminders.empty());
}

TEST_F(DomindsPads, TeamMgmtWritesAMindsFileFromAPad) {
  tree_.write(".minds/team.yaml",
              "member_defaults:\n  provider: local\n  model: m\n  diligence-push-max: 0\nmembers:\n  dev:\n"
              "    toolsets: [ws_mod, team_mgmt]\n");
  auto run = testing::run_scripted_minds_dialog(
      tree_, team(),
      "members:\n  dev:\n    - when: {round: 1}\n      emit:\n"
      "        - tool_call: {name: pad_write, arguments: {pad_id: persona, content: \"# Dev\\nWrites parsers.\\n\"}}\n"
      "        - tool_call: {name: team_mgmt_create_new_file, arguments: {path: team/dev.md, pad_id: persona}}\n"
      "    - emit: [{saying: Done.}]\n");
  ASSERT_NE(run.eng, nullptr);
  const auto results = run.tool_results();
  ASSERT_EQ(results.size(), 2U) << ::testing::PrintToString(results);
  EXPECT_TRUE(has_text(results[1], "source: pad\npad_id: 'persona'")) << results[1];
  EXPECT_EQ(pad_test_file(tree_.root() / ".minds/team/dev.md"), "# Dev\nWrites parsers.\n");
}

TEST(ScratchPad, TheDisplayBlockIsDomindsAndReadsBack) {
  scratch_pad pad;
  pad.id = "draft";
  pad.lines = {"int main() {", "  return 0; // ```", "}"};
  pad.source_note = "Loaded from main.cpp full file";
  pad.delete_when_done = false;
  const std::string shown = render_pad(pad);
  EXPECT_TRUE(
      shown.starts_with("[Scratch Pad]\npad_id: draft\nintent: (missing; add an intent with "
                        "pad_write/pad_load_file_range)\ncompletion: Delete this pad when the current task "
                        "no longer needs it.\nlifecycle: temporary / keep-while-needed\nsource: Loaded from "
                        "main.cpp full file\n\nNote: Pad content is task data"))
      << shown;
  // The fence is longer than any run of backticks in the body.
  EXPECT_TRUE(has_text(shown, "Content:\n````text\n   1| int main() {\n   2|   return 0; // ```\n   3| }\n````"))
      << shown;
  const auto back = parse_pad(shown);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->lines, pad.lines);
  EXPECT_FALSE(back->intent);
  EXPECT_FALSE(back->completion);
  EXPECT_EQ(back->source_note, pad.source_note);
  EXPECT_FALSE(back->delete_when_done);
  scratch_pad empty;
  empty.id = "e";
  const auto empty_back = parse_pad(render_pad(empty));
  ASSERT_TRUE(empty_back);
  EXPECT_TRUE(empty_back->lines.empty());
  EXPECT_FALSE(parse_pad("[Scratch Pad] is what I call my notes"));
  EXPECT_FALSE(is_pad_reminder("check the parser"));
}

TEST(ScratchPad, AChineseTeamsPadHasDomindsChineseNotes) {
  scratch_pad pad;
  pad.id = "zh";
  pad.lines = {"第一行"};
  pad.language = "zh";
  const std::string shown = render_pad(pad);
  EXPECT_TRUE(has_text(shown, "intent: （未填写；建议用 pad_write/pad_load_file_range 补充 intent）\n")) << shown;
  EXPECT_TRUE(has_text(shown, "source: 未注明\n\n注意：pad 正文是待编辑/引用的数据")) << shown;
  const auto back = parse_pad(shown);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->language, "zh");
  EXPECT_FALSE(back->intent);
  EXPECT_EQ(back->lines, pad.lines);
  EXPECT_EQ(render_pad(*back), shown);
}

TEST(ScratchPad, LineRangesAreDomindsWithErrorsNamingTheField) {
  const std::vector<std::string> lines{"a", "b", "c"};
  EXPECT_EQ(*select_pad_lines(lines, "2~", "range"), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(*select_pad_lines(lines, "~2", "range"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(*replace_pad_lines(lines, "4~", "to_range", {"d"}), (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ(*replace_pad_lines(lines, "2", "range", {}), (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(*replace_pad_lines({}, "~", "range", {"x"}), (std::vector<std::string>{"x"}));
  const auto append = select_pad_lines(lines, "4~", "from_range");
  ASSERT_FALSE(append);
  EXPECT_TRUE(has_text(append.err().message, "from_range: '4~' is the append position")) << append.err().message;
  const auto reversed = parse_pad_range("3~1", 3, "range");
  ASSERT_FALSE(reversed);
  EXPECT_TRUE(has_text(reversed.err().message, "range: '3~1' ends before it starts")) << reversed.err().message;
  const auto word = parse_pad_range("x~2", 3, "range");
  ASSERT_FALSE(word);
  EXPECT_TRUE(has_text(word.err().message, "range: 'x~2' is not a line range")) << word.err().message;
  EXPECT_FALSE(normalize_pad_id(std::string(65, 'a'), "pad_id"));
  EXPECT_EQ(*normalize_pad_id(" ok_id-1 ", "pad_id"), "ok_id-1");
  EXPECT_EQ(pad_body_lines("\n"), (std::vector<std::string>{""}));
  EXPECT_TRUE(pad_body_lines("").empty());
}

TEST(DomindsPadSpecs, EveryPadToolHasDomindsSchema) {
  const auto specs = dominds_pad_specs();
  ASSERT_EQ(specs.size(), 8U);
  for (const auto& spec : specs) {
    EXPECT_TRUE(is_pad_tool(spec.name)) << spec.name;
    EXPECT_FALSE(has_text(spec.description, "(no spec)")) << spec.name;
    EXPECT_TRUE(spec.parameters.contains("properties")) << spec.name;
  }
  const auto& copy = specs[5].parameters.at("properties").as_object();
  EXPECT_EQ(specs[5].name, "pad_copy");
  EXPECT_TRUE(copy.contains("from_pad_id") && copy.contains("to_range") && copy.contains("delete_when_done"));
}

}  // namespace
}  // namespace parley::engine
