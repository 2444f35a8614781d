#include "parley/tot/run_progress.hpp"

namespace parley::tot {

std::string_view name_of(run_status status) {
  switch (status) {
    case run_status::running:
      return "running";
    case run_status::solved:
      return "solved";
    case run_status::failed:
      return "failed";
    case run_status::interrupted:
      return "interrupted";
  }
  return "running";
}

std::string_view name_of(progress_step step) {
  switch (step) {
    case progress_step::started:
      return "started";
    case progress_step::generated:
      return "generated";
    case progress_step::evaluated:
      return "evaluated";
    case progress_step::pruned:
      return "pruned";
    case progress_step::updated:
      return "updated";
    case progress_step::finished:
      return "finished";
  }
  return "updated";
}

progress_step step_between(const thought_node* before, const thought_node& now) {
  if (before == nullptr) return progress_step::generated;
  if (now.status == node_status::pruned && before->status != node_status::pruned) return progress_step::pruned;
  if (now.evaluation && !before->evaluation) return progress_step::evaluated;
  return progress_step::updated;
}

}  // namespace parley::tot
