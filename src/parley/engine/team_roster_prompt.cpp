#include "parley/engine/team_roster_prompt.hpp"

#include <algorithm>

namespace parley::engine {
namespace {

// Every phrase of the section in one language. `{who}` and `{slug}` are filled in by fill().
// Kept short on purpose: the section is sent with every model call of every dialog.
struct wording {
  std::string_view identity;  // {name} {id}
  std::string_view team;
  std::string_view members_function;  // a member that can Tellask with function calls
  std::string_view members_text;      // ... in text
  std::string_view members_plain;     // a member that cannot Tellask anyone
  std::string_view only_member;
  std::string_view self_mark;
  std::string_view go_for;
  std::string_view not_for;
  std::string_view card_gap;  // between a card's label and its one item
  std::string_view human;
  std::string_view where;
  std::string_view root;
  std::string_view group;
  std::string_view session;
  std::string_view sessionless;
  std::string_view reflection;
  std::string_view fbr;
  std::string_view unknown_tellasker;
  std::string_view guide;
  std::string_view text_intro;
  std::string_view tellask;
  std::string_view tellask_sessionless;
  std::string_view tellask_back;
  std::string_view fresh_boots_reasoning;
  std::string_view ask_human;
  std::string_view text_tellask;
  std::string_view text_tellask_sessionless;
  std::string_view text_tellask_back;
  std::string_view text_fresh_boots_reasoning;
  std::string_view text_ask_human;
  std::string_view waits_function;
  std::string_view waits_text;
  std::string_view open_paren;  // around a display name
  std::string_view close_paren;
};

constexpr wording kEnglish{
    .identity = "You are {name} (@{id}), a member of an agent team.",
    .team = "## Team",
    .members_function = "Members you can Tellask (targetAgentId):",
    .members_text = "Members you can Tellask (`!?@<id>`):",
    .members_plain = "Team members:",
    .only_member = "You are the team's only member.",
    .self_mark = ": you",
    .go_for = "go to them for:",
    .not_for = "not for:",
    .card_gap = " ",
    .human =
        "The human: ask with askHuman (Q4H) only for what no teammate can give: a decision, an approval, a "
        "fact nobody on the team can find.",
    .where = "## Where you are",
    .root = "A root dialog: you work for the human who writes here, and your replies go to them.",
    .group = "A root dialog shared by the participants named below.",
    .session =
        "A subdialog: {who} tellasked you in session `{slug}` (tellask, Type B). It may ask again in that "
        "session; your final reply goes to whoever asked last.",
    .sessionless =
        "A subdialog: {who} tellasked you once (tellaskSessionless, Type C); your final reply goes to "
        "them and ends this dialog.",
    .reflection = "A self-reflection subdialog started by {who}; your final reply is its summary.",
    .fbr = "A Fresh Boots Reasoning sideline asked by {who} (maybe yourself); your reply goes back to them.",
    .unknown_tellasker = "your tellasker",
    .guide = "## Which Tellask to use",
    .text_intro =
        "You Tellask by writing lines that start with `!?`: the headline `!?@<id> <request>`, then "
        "`!?<more>` lines for the body; any other line ends the block.",
    .tellask =
        "tellask: Type B, a named session (sessionSlug) with a teammate; the same targetAgentId and "
        "sessionSlug continue it with its context. For work you will follow up on.",
    .tellask_sessionless =
        "tellaskSessionless: Type C, a one-off task in a fresh subdialog; each call is a "
        "separate task.",
    .tellask_back =
        "tellaskBack: Type A, ask {who}, your tellasker, for clarification or a decision. No "
        "sessionSlug. A tellaskSessionless to {who} is taken as a tellaskBack too.",
    .fresh_boots_reasoning =
        "freshBootsReasoning: think one sub-problem through in a fresh dialog of yourself, "
        "without tools.",
    .ask_human = "askHuman: a question for the human (Q4H).",
    .text_tellask =
        "`!?@<id> !tellaskSession <slug> ...`: Type B, a named session with a teammate; the same id "
        "and slug continue it with its context. For work you will follow up on.",
    .text_tellask_sessionless = "`!?@<id> ...`: Type C, a one-off task in a fresh subdialog.",
    .text_tellask_back =
        "`!?@tellasker ...`: Type A, ask {who}, your tellasker, for clarification or a decision; "
        "addressing {who} by id does the same.",
    .text_fresh_boots_reasoning =
        "`!?@self ...`: Fresh Boots Reasoning, think one sub-problem through in a "
        "fresh dialog of yourself, without tools.",
    .text_ask_human = "`!?@human ...`: a question for the human (Q4H).",
    .waits_function =
        "Each call waits for its reply, which becomes the call's result. The one you ask sees only "
        "tellaskContent: put in it everything they need.",
    .waits_text =
        "Each Tellask waits for its reply, which comes back to you. The one you ask sees only the "
        "block's text: put in it everything they need.",
    .open_paren = " (",
    .close_paren = ")",
};

constexpr wording kChinese{
    .identity = "你是 {name}（@{id}），一个智能体团队的成员。",
    .team = "## 团队",
    .members_function = "可以诉请的成员（targetAgentId）：",
    .members_text = "可以诉请的成员（`!?@<id>`）：",
    .members_plain = "团队成员：",
    .only_member = "你是团队唯一的成员。",
    .self_mark = "：你自己",
    .go_for = "适合找祂：",
    .not_for = "不要找祂：",
    .card_gap = "",
    .human = "人类：只有队友都给不了时，才用 askHuman（Q4H）问人类：需要拍板、批准，或团队里谁都查不到的事实。",
    .where = "## 你在哪里",
    .root = "根对话：你为在这里发言的人类工作，你的回复交给人类。",
    .group = "根对话，由下面列出的参与者共享。",
    .session =
        "支线对话：{who} 在会话 `{slug}` 中诉请了你（tellask，长线诉请，Type B）。祂可能在同一会话中再次诉"
        "请；你的最终回复交给最近一次诉请的一方。",
    .sessionless =
        "支线对话：{who} 一次性诉请了你（tellaskSessionless，一次性诉请，Type C）；你的最终回复交给祂，"
        "本对话随之结束。",
    .reflection = "自省支线对话，由 {who} 发起；你的最终回复就是本次自省的总结。",
    .fbr = "扪心自问（FBR）支线对话，由 {who}（可能就是你自己）发起；你的回复交回给祂。",
    .unknown_tellasker = "你的诉请者",
    .guide = "## 用哪种诉请",
    .text_intro =
        "诉请的写法：写以 `!?` 开头的行：首行 `!?@<id> <请求>`，之后的 `!?<更多内容>` 行是正文；任何其他行"
        "结束这一组。",
    .tellask =
        "tellask：长线诉请（Type B），与队友的具名会话（sessionSlug）；同一 targetAgentId 加同一 "
        "sessionSlug 会接着这个会话，保留其上下文。用于需要后续跟进的工作。",
    .tellask_sessionless =
        "tellaskSessionless：一次性诉请（Type C），在新的支线对话中做一件独立的事；每次调用都是另"
        "一件事。",
    .tellask_back =
        "tellaskBack：回问诉请（Type A），向你的诉请者 {who} 请求澄清或决定；不带 sessionSlug。对 {who} 的 "
        "tellaskSessionless 也按回问诉请处理。",
    .fresh_boots_reasoning =
        "freshBootsReasoning：扪心自问（FBR），在一个没有工具的全新自我对话中把一个子问题想清"
        "楚。",
    .ask_human = "askHuman：向人类提问（Q4H）。",
    .text_tellask =
        "`!?@<id> !tellaskSession <slug> ...`：长线诉请（Type B），与队友的具名会话；同一 id 加同一 "
        "slug 会接着这个会话，保留其上下文。用于需要后续跟进的工作。",
    .text_tellask_sessionless = "`!?@<id> ...`：一次性诉请（Type C），在新的支线对话中做一件独立的事。",
    .text_tellask_back =
        "`!?@tellasker ...`：回问诉请（Type A），向你的诉请者 {who} 请求澄清或决定；直接写 {who} 也一样。",
    .text_fresh_boots_reasoning =
        "`!?@self ...`：扪心自问（FBR），在一个没有工具的全新自我对话中把一个子问题想清"
        "楚。",
    .text_ask_human = "`!?@human ...`：向人类提问（Q4H）。",
    .waits_function =
        "每个调用都会等待回复，回复即该调用的结果。被诉请方只看得到 tellaskContent：把祂需要的都写进"
        "去。",
    .waits_text = "每次诉请都会等待回复，回复会回到你这里。被诉请方只看得到这一组的文字：把祂需要的都写进去。",
    .open_paren = "（",
    .close_paren = "）",
};

const wording& words_for(std::string_view language) { return language == "zh" ? kChinese : kEnglish; }

// `text` with each `{key}` replaced by its value.
std::string fill(std::string_view text, std::initializer_list<std::pair<std::string_view, std::string_view>> values) {
  std::string out(text);
  for (const auto& [key, value] : values) {
    const std::string marker = "{" + std::string(key) + "}";
    for (auto at = out.find(marker); at != std::string::npos; at = out.find(marker, at + value.size())) {
      out.replace(at, marker.size(), value);
    }
  }
  return out;
}

// "@id (Name)", or "@id" when the name is the id.
std::string call_sign(const wording& w, const config::member_config& member) {
  std::string out = "@" + member.id;
  if (!member.name.empty() && member.name != member.id) {
    out += w.open_paren;
    out += member.name;
    out += w.close_paren;
  }
  return out;
}

// Continuation lines of a multi-line item keep the item's indentation.
std::string indented(std::string_view text, std::string_view indent) {
  std::string out;
  for (const char c : text) {
    out += c;
    if (c == '\n') out += indent;
  }
  return out;
}

// "  - go to them for: x" for one item; a nested list for several.
void append_card(std::string& out, const wording& w, std::string_view label, const std::vector<std::string>& items) {
  if (items.empty()) return;
  out += "  - ";
  out += label;
  if (items.size() == 1) {
    out += std::string(w.card_gap) + indented(items.front(), "    ") + "\n";
    return;
  }
  out += "\n";
  for (const auto& item : items) out += "    - " + indented(item, "      ") + "\n";
}

bool offers(const roster_input& input, std::string_view tool) {
  return std::find(input.tellask_tools.begin(), input.tellask_tools.end(), tool) != input.tellask_tools.end();
}

bool has_visible_teammates(const roster_input& input) {
  return std::any_of(input.team->members.begin(), input.team->members.end(),
                     [&](const config::member_config& m) { return m.id != input.self->id && !m.hidden; });
}

bool can_reach_teammates(const roster_input& input) {
  return offers(input, "tellask") || offers(input, "tellaskSessionless");
}

void append_team(std::string& out, const wording& w, const roster_input& input) {
  out += w.team;
  out += "\n";
  const auto& self = *input.self;
  if (!has_visible_teammates(input)) {
    out += w.only_member;
    out += "\n";
  } else {
    const bool reach = can_reach_teammates(input);
    out += !reach ? w.members_plain : input.text_syntax ? w.members_text : w.members_function;
    out += "\n";
    for (const auto& member : input.team->members) {
      if (member.id == self.id) {
        out += "- " + call_sign(w, member) + std::string(w.self_mark) + "\n";
        continue;
      }
      if (member.hidden) continue;
      out += "- " + call_sign(w, member) + "\n";
      append_card(out, w, w.go_for, member.gofor);
      append_card(out, w, w.not_for, member.nogo);
    }
  }
  if (offers(input, "askHuman")) {
    out += w.human;
    out += "\n";
  }
}

std::string who_asked(const wording& w, const dialog_position& position) {
  return position.tellasker.empty() ? std::string(w.unknown_tellasker) : "@" + position.tellasker;
}

void append_position(std::string& out, const wording& w, const dialog_position& position) {
  out += w.where;
  out += "\n";
  const std::string who = who_asked(w, position);
  using kind = dialog_position::kind;
  switch (position.where) {
    case kind::root:
      out += w.root;
      break;
    case kind::group:
      out += w.group;
      break;
    case kind::session:
      out += fill(w.session, {{"who", who}, {"slug", position.session_slug}});
      break;
    case kind::sessionless:
      out += fill(w.sessionless, {{"who", who}});
      break;
    case kind::reflection:
      out += fill(w.reflection, {{"who", who}});
      break;
    case kind::fbr:
      out += fill(w.fbr, {{"who", who}});
      break;
  }
  out += "\n";
}

void append_guide(std::string& out, const wording& w, const roster_input& input) {
  struct line {
    std::string_view tool;
    std::string_view function_text;
    std::string_view text_text;
  };
  // Seed 001's order: B, C, A, FBR, Q4H.
  const line lines[] = {
      {"tellask", w.tellask, w.text_tellask},
      {"tellaskSessionless", w.tellask_sessionless, w.text_tellask_sessionless},
      {"tellaskBack", w.tellask_back, w.text_tellask_back},
      {"freshBootsReasoning", w.fresh_boots_reasoning, w.text_fresh_boots_reasoning},
      {"askHuman", w.ask_human, w.text_ask_human},
  };
  const std::string who = who_asked(w, input.position);
  out += w.guide;
  out += "\n";
  if (input.text_syntax) {
    out += w.text_intro;
    out += "\n";
  }
  // Without teammates to ask, the Type B and C lines would only invite Tellasks of itself.
  const bool teammates = has_visible_teammates(input);
  for (const auto& item : lines) {
    if (!offers(input, item.tool)) continue;
    if (!teammates && (item.tool == "tellask" || item.tool == "tellaskSessionless")) continue;
    out += "- " + fill(input.text_syntax ? item.text_text : item.function_text, {{"who", who}}) + "\n";
  }
  out += input.text_syntax ? w.waits_text : w.waits_function;
  out += "\n";
}

}  // namespace

std::string identity_line(std::string_view language, const config::member_config& member) {
  return fill(words_for(language).identity, {{"name", member.name}, {"id", member.id}});
}

std::string team_roster_section(const roster_input& input) {
  const wording& w = words_for(input.language);
  std::string out;
  // A Fresh Boots Reasoning sideline has no tools and may not Tellask: the team is not its business.
  if (input.position.where != dialog_position::kind::fbr) {
    append_team(out, w, input);
    out += "\n";
  }
  append_position(out, w, input.position);
  if (input.position.where != dialog_position::kind::fbr && !input.tellask_tools.empty()) {
    out += "\n";
    append_guide(out, w, input);
  }
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace parley::engine
