#pragma once
// What a certification run left behind: the mock servers' wire records (what the client sent and
// was sent, timed by the mock servers) and the events the client reported about itself.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcp_hints::conformance {

struct WireLine {
  std::string server;         // the scenario's key for the mock server that recorded it
  std::string connection;     // "stdio:PID" or "http:SESSION"
  std::size_t session = 0;    // 1 for the server's first session, 2 for the next ... (number_sessions)
  std::string direction;      // "in" (from the client), "out" (to it), or empty for a connection event
  double time = 0;            // Unix time, seconds
  nlohmann::json message;     // null for events and for input that was not JSON
  std::string event;          // "open", "close (stdin closed)" ...
  std::string raw;            // input that was not JSON
  std::string authorization;  // the scenario's name for the authorization context it came under; empty: none
};

// The event types of the adapter contract (conformance/ADAPTER.md).
const std::vector<std::string>& client_event_types();

struct ClientEvent {
  std::string type;     // one of client_event_types()
  double time = 0;      // Unix time, seconds, as the client wrote it
  nlohmann::json data;  // the whole line
  std::size_t line = 0;
};

// One exchange of the scripted model endpoint, when a real host ran (its model.jsonl): what the
// model answered (call, done, side, refused...), the call it asked for, and the task's calls it
// passed over because the request did not offer their tools.
struct ModelTurn {
  double time = 0;
  std::size_t conversation = 1;
  std::string answer, server, tool;
  std::vector<std::pair<std::string, std::string>> not_offered;  // server, tool
};

struct RunRecord {
  std::vector<WireLine> wire;       // every server's lines, by time
  std::vector<ClientEvent> events;  // by time
  std::vector<ModelTurn> model;     // the scripted model's exchanges, when a real host ran
  bool model_served = false;        // a scripted model was served (its record read, even empty)
  std::vector<std::string> notes;   // what was wrong with the files (contract problems)
  // Why the events cannot be ordered against the wire (their times are not Unix seconds from the
  // clock the mock servers use); empty when they can. A record whose events are unusable judges
  // nothing: every check is not testable.
  std::string events_unusable;

  // Whether the scripted model passed over a call of `tool` of `server` because the host had not
  // offered it, or was served and never asked at all (the host stopped before its first turn):
  // the host rejected the listing that holds it.
  bool never_offered(const std::string& server, const std::string& tool) const;

  // Requests (not notifications, not answers) the client sent to a server.
  bool is_request_in(const WireLine& line) const;
  // The server's answer to a request line (same server, connection and id), if it sent one.
  const WireLine* answer_to(const WireLine& request) const;

  // Indexes answers; read_run_record calls it, and so must whoever fills wire by hand.
  void index();

 private:
  std::map<std::string, std::size_t> answers_;
};

// Numbers each line's session: per server, its connections in order, where a connection that
// carried nothing but server/discover (a probe) joins the next, and the reconnection after a
// scripted close goes on with the dropped connection's session unless a new_session event lies
// between; over stateless HTTP, which has no session, the client's new_session events divide its
// agent sessions. read_run_record calls it.
void number_sessions(RunRecord& record);

// Why a client may have got nowhere, in words for the run's notes: each method the mock server
// does not speak (answered -32601, e.g. server/discover of the stateless era) and each request
// refused at the HTTP level, once per kind.
std::vector<std::string> protocol_notes(const RunRecord& record);

// Holds the events' times to the window the client ran in (Unix seconds, system clock, as the
// harness saw it start and end), within a second's slack each way: an event outside it was timed
// in another unit or on another clock. Sets events_unusable and a note when one is.
void check_event_times(RunRecord& record, double client_started, double client_ended);

// Reads the wire record of each server (key -> file) and the client's events file. Missing files
// read as empty; malformed lines become notes. Bounded: at most max_bytes and max_lines per file
// (far beyond any scenario's, and small enough that a flooding client cannot make judging or the
// report grow without bound); what is cut is said in a note.
RunRecord read_run_record(const std::map<std::string, std::string>& wire_files, const std::string& events_file,
                          std::size_t max_bytes = std::size_t{64} << 20, std::size_t max_lines = 20000);

// Adds the scripted model's record (model.jsonl) to `record`, bounded as above; a missing file adds
// nothing, and a line that is not an exchange is a note.
void read_model_record(RunRecord& record, const std::string& model_file, std::size_t max_bytes = std::size_t{64} << 20,
                       std::size_t max_lines = 20000);

}  // namespace mcp_hints::conformance
