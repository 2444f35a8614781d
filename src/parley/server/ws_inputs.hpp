// The input packets of the PubChan (drive_dlg_by_user_msg, drive_dialog_by_user_answer, interrupt,
// resume, declare_subdialog_dead): each calls the engine and succeeds once the input is durable.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <string>
#include <string_view>

#include "parley/core/result.hpp"
#include "parley/server/server_context.hpp"
#include "parley/server/ws_decode.hpp"

namespace parley::server {

bool is_input_packet(client_packet_type type);
// `packet` has been validated against the protocol table. Errors name the field when one is at fault.
boost::asio::awaitable<result<void>> run_input(server_context& context, const user& who, client_packet_type type,
                                               boost::json::object packet);
// The dialog's row, when it exists and `who` may see it (dialog.selfId: not_found otherwise, also
// for another user's). A dialog the engine holds is answered from memory; others are read on the
// store's read thread while the loop serves.
boost::asio::awaitable<result<dialog_row>> check_dialog(server_context& context, const user& who,
                                                        std::string dialog_id);
// The `code` of an error packet for an engine error.
const char* wire_error_code(errc code);

}  // namespace parley::server
