#include "option_values.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <thread>

#include <boost/program_options.hpp>

namespace mcp_hints::cli {
namespace po = boost::program_options;

std::chrono::milliseconds parse_duration(const std::string& text) {
  double number = 0;
  const char* end = text.data() + text.size();
  const auto [rest, ec] = std::from_chars(text.data(), end, number);
  if (ec != std::errc() || text.empty() || text[0] == '-' || text[0] == '+' || !std::isfinite(number))
    throw std::invalid_argument("not a duration (write 30s, 500ms or 2m)");
  const std::string unit(rest, end);
  double ms_per_unit = 0;
  if (unit.empty() && number == 0)
    ms_per_unit = 1;
  else if (unit.empty())
    throw std::invalid_argument("a duration needs its unit (write 30s, 500ms or 2m)");
  else if (unit == "ms")
    ms_per_unit = 1;
  else if (unit == "s")
    ms_per_unit = 1000;
  else if (unit == "m" || unit == "min")
    ms_per_unit = 60000;
  else
    throw std::invalid_argument("unknown unit '" + unit + "' (ms, s or m)");
  const double ms = number * ms_per_unit;
  if (ms > 24.0 * 3600 * 1000) throw std::invalid_argument("longer than a day");
  return std::chrono::milliseconds(static_cast<long long>(std::llround(ms)));
}

std::size_t parse_count(const std::string& text, std::size_t least, std::size_t most) {
  const std::string range = " (" + std::to_string(least) + " to " + std::to_string(most) + ")";
  std::size_t value = 0;
  const char* end = text.data() + text.size();
  const auto [rest, ec] = std::from_chars(text.data(), end, value);
  const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
  if (text.starts_with('-') && text.size() > 1 && text.find_first_not_of("0123456789", 1) == std::string::npos)
    throw std::invalid_argument("must not be negative" + range);
  if (!digits || (ec != std::errc() && ec != std::errc::result_out_of_range) || rest != end)
    throw std::invalid_argument("not a whole number" + range);
  if (ec == std::errc::result_out_of_range || value < least || value > most)
    throw std::invalid_argument("out of range" + range);
  return value;
}

std::size_t Jobs::cores() { return std::max(1u, std::thread::hardware_concurrency()); }

std::string duration_text(std::chrono::milliseconds value) {
  const auto ms = value.count();
  return ms % 1000 == 0 ? std::to_string(ms / 1000) + "s" : std::to_string(ms) + "ms";
}

namespace {

// One value, or Boost's own error; a value it cannot read becomes an error naming the option.
template <class T, class Parse>
void validate_one(boost::any& out, const std::vector<std::string>& values, Parse parse) {
  po::validators::check_first_occurrence(out);
  const std::string& text = po::validators::get_single_string(values);
  try {
    out = T(parse(text));
  } catch (const std::invalid_argument& e) {
    throw po::error_with_option_name("'" + text + "' for option '%canonical_option%': " + e.what());
  }
}

}  // namespace

void validate(boost::any& out, const std::vector<std::string>& values, Duration*, int) {
  validate_one<Duration>(out, values, [](const std::string& t) { return parse_duration(t); });
}

void validate(boost::any& out, const std::vector<std::string>& values, Count*, int) {
  validate_one<Count>(out, values, [](const std::string& t) { return parse_count(t); });
}

void validate(boost::any& out, const std::vector<std::string>& values, Jobs*, int) {
  validate_one<Jobs>(out, values, [](const std::string& t) { return parse_count(t, 1, Jobs::kMost); });
}

void validate(boost::any& out, const std::vector<std::string>& values, Port*, int) {
  validate_one<Port>(out, values, [](const std::string& t) { return parse_count(t, 0, 65535); });
}

}  // namespace mcp_hints::cli
