#include "parley/server/tot_progress_relay.hpp"

#include "parley/tot/protocol_json.hpp"

namespace parley::server {

void tot_progress_relay::on_progress(const tot::run_progress& progress) {
  if (progress.root_dialog.empty()) return;
  boost::json::object fields{
      {"taskId", progress.task_id}, {"step", tot::name_of(progress.step)}, {"status", tot::name_of(progress.status)}};
  if (progress.node) fields["node"] = tot::to_json(*progress.node);
  if (progress.step == tot::progress_step::finished) {
    boost::json::array best;
    for (const auto& id : progress.best_path) best.emplace_back(id);
    fields["bestPath"] = std::move(best);
    if (progress.final_solution) fields["finalSolution"] = *progress.final_solution;
  }
  channels_.publish_to_root(progress.root_dialog, "tot_progress_evt", std::move(fields));
}

}  // namespace parley::server
