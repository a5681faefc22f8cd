// A stand-in for otpu-regress with the interface the Slurm backend builds on, so the backend
// is tested on a real Slurm without the board model: a "matrix" is a text file with one cell a
// line, "ID pass", "ID fail" or "ID crash" (exits 3 without a result).
//   list MATRIX [--only RE]                prints "INDEX ID" per selected cell
//   cell MATRIX --index I --out DIR [--only RE]  writes DIR/cells/ID.json; exit 0 pass, 1 fail
//   merge DIR                              writes DIR/index.json; exit 0 all passed, 1 not,
//                                          5 a cell of DIR/selection.txt has no result
//   slurm ...                              the real `otpu-regress slurm` (slurm_command.h),
//                                          preparing DIR/selection.txt as the runner does
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "host/programs/regress/slurm_command.h"

namespace {

namespace fs = std::filesystem;

struct Args {
  std::vector<std::string> positional;
  std::string only, out;
  int index = -1;
};

Args Parse(int argc, char** argv) {
  Args args;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--only" && i + 1 < argc) args.only = argv[++i];
    else if (a == "--out" && i + 1 < argc) args.out = argv[++i];
    else if (a == "--index" && i + 1 < argc) args.index = std::stoi(argv[++i]);
    else if (a == "--run" && i + 1 < argc) ++i;  // the submission's id: results here have none
    else args.positional.push_back(a);
  }
  return args;
}

// The selected cells as (matrix index, id, verdict); false when the matrix cannot be read.
bool Select(const std::string& matrix, const std::string& only,
            std::vector<std::tuple<int, std::string, std::string>>& cells) {
  std::ifstream file(matrix);
  if (!file) return false;
  std::regex re(only.empty() ? ".*" : only);
  std::string id, verdict;
  for (int index = 0; file >> id >> verdict; ++index) {
    if (std::regex_search(id, re)) cells.emplace_back(index, id, verdict);
  }
  return true;
}

// Writes DIR/selection.txt, the ids `merge` expects.
otpu::Status Prepare(const std::string& matrix, const std::string& only, const std::string& dir,
                     const std::string& /*run_id*/) {
  std::vector<std::tuple<int, std::string, std::string>> cells;
  if (!Select(matrix, only, cells)) return otpu::NotFound("cannot read " + matrix);
  fs::create_directories(dir);
  std::ofstream file(dir + "/selection.txt");
  for (const auto& [index, id, verdict] : cells) file << id << "\n";
  if (!file) return otpu::Internal("cannot write " + dir + "/selection.txt");
  return otpu::OkStatus();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  std::string command = argv[1];
  if (command == "slurm") return otpu::regress::RunSlurmCommand(argc - 1, argv + 1, Prepare);
  Args args = Parse(argc, argv);
  if (command == "merge") {
    if (args.positional.size() != 1) return 2;
    std::string dir = args.positional[0];
    std::vector<std::string> cells;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir + "/cells", ec)) {
      std::ifstream file(entry.path());
      cells.emplace_back((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    }
    std::sort(cells.begin(), cells.end());
    bool passed = !cells.empty();
    std::string joined;
    for (const std::string& c : cells) {
      passed = passed && c.find("\"passed\": true") != std::string::npos;
      joined += (joined.empty() ? "" : ", ") + c;
    }
    int missing = 0;
    std::ifstream selection(dir + "/selection.txt");
    for (std::string id; selection >> id;) missing += !fs::exists(dir + "/cells/" + id + ".json");
    std::ofstream(dir + "/index.json")
        << "{\"passed\": " << (passed && !missing ? "true" : "false") << ", \"missing\": "
        << missing << ", \"cells\": [" << joined << "]}\n";
    return missing ? 5 : passed ? 0 : 1;
  }
  if (args.positional.size() != 1) return 2;
  std::vector<std::tuple<int, std::string, std::string>> cells;
  if (!Select(args.positional[0], args.only, cells)) {
    std::cerr << "fake-otpu-regress: cannot read " << args.positional[0] << "\n";
    return 4;
  }
  if (command == "list") {
    for (const auto& [index, id, verdict] : cells) std::cout << index << " " << id << "\n";
    return 0;
  }
  if (command == "cell") {
    if (args.index < 0 || args.index >= static_cast<int>(cells.size()) || args.out.empty()) return 2;
    const auto& [index, id, verdict] = cells[args.index];
    if (verdict == "crash") return 3;
    const bool pass = verdict == "pass";
    std::cout << "cell " << id << (pass ? " passed" : " failed") << "\n";
    fs::create_directories(args.out + "/cells");
    std::ofstream(args.out + "/cells/" + id + ".json")
        << "{\"id\": \"" << id << "\", \"passed\": " << (pass ? "true" : "false") << "}";
    return pass ? 0 : 1;
  }
  return 2;
}
