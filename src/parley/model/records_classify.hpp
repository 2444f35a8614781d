#pragma once
// What an event is in seed 002's records (docs/records.md): the dialogue a dialog_created makes,
// and the three-party view of each message (who speaks, to whom, and how it moves the open turn).
// The records reducer's own vocabulary (conversation_reducer.cpp), apart so that it reads alone.
#include <string>
#include <string_view>

#include <boost/json/object.hpp>

#include "parley/model/conversation_records.hpp"
#include "parley/model/event.hpp"
#include "parley/model/flow_records.hpp"
#include "parley/model/projection.hpp"

namespace parley::records_detail {

// How a message moves the turn it lands in.
enum class message_kind {
  input,     // asks this dialog's AI for an answer (human text, a Tellask, a late reply, a prompt)
  answer,    // this dialog's AI answers its counterpart (a final saying)
  question,  // this dialog's AI asks the human (askHuman): answers the open turn, opens the next
  working,   // part of a turn's work: tool calls, tool results, interrupted output
};

struct classified {
  record_message msg;
  message_kind kind = message_kind::working;
  bool to_human = false;  // a human's message in a group that asks no AI: the other humans answer
  std::string notes;      // for the system utterance log, when the system speaks
};

// The id of the record of `kind` that `ev` makes.
std::string id_of(std::string_view kind, const event& ev);
std::string metadata_text(const boost::json::object& obj);

record_dialogue dialogue_from_created(const event& ev, const events::dialog_created& p);
// The three-party view of a projected message (seed 002 "三者对话结构"): who speaks, and what.
classified classify(const event& ev, const dialog_row& row, const message_row& m);
// A flow's main-thread message (seed 004): the user asks, the bot answers; a placeholder that will
// hold a sub-thread's result is the bot at work, so the turn stays open for the answer after it.
classified flow_message(const flow_main_message& m, const dialog_row& row);
// askHuman's question is the AI speaking to the human: a message of its own.
classified question_message(const events::question_asked& p, const dialog_row& row);

}  // namespace parley::records_detail
