#include "base/cli.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace otpu::cli {
namespace {

// A program shaped like lens: `record WORKLOAD... -o FILE [--config CONFIG] [--keep first|last]`.
Program Example() {
  Program p;
  p.name = "ex";
  p.summary = "an example";
  p.family = exit_codes::Family::kLens;
  Command record;
  record.name = "record";
  record.synopsis = "WORKLOAD... -o FILE [options]";
  record.summary = "records workloads";
  record.describe = [](Spec* s) {
    s->visible.add_options()("out,o", po::value<std::string>()->value_name("FILE"), "file to write")(
        "config", po::value<std::string>()->value_name("CONFIG"), "configuration")(
        "keep", po::value<std::string>()->value_name("first|last")->default_value("first"), "which")(
        "bucket", po::value<int>()->value_name("N")->default_value(64), "window, default 64")(
        "isa", po::bool_switch(), "ISA simulator");
    s->hidden.add_options()("workload", po::value<std::vector<std::string>>()->value_name("WORKLOAD"));
    s->positional.add("workload", -1);
  };
  record.run = [](const std::vector<std::string>&) { return 0; };
  Command info;
  info.name = "info";
  info.synopsis = "FILE";
  info.summary = "summarises a file";
  info.describe = [](Spec* s) {
    s->hidden.add_options()("file", po::value<std::string>()->value_name("FILE"));
    s->positional.add("file", 1);
  };
  info.run = record.run;
  p.commands = {record, info};
  p.values["WORKLOAD"] = [] { return std::vector<std::string>{"mlp", "mlp-small", "attn"}; };
  p.values["CONFIG"] = [] { return std::vector<std::string>{"sim", "board"}; };
  return p;
}

std::vector<std::string> C(const std::vector<std::string>& words) { return Complete(Example(), words); }
using V = std::vector<std::string>;

TEST(CliHelp, OptionLinesListsEachOptionOnOneLineWithItsDefault) {
  Spec s;
  Example().commands[0].describe(&s);
  const std::string lines = OptionLines(s.visible);
  EXPECT_NE(lines.find("  -o, --out FILE"), std::string::npos) << lines;
  EXPECT_NE(lines.find("--keep first|last"), std::string::npos) << lines;
  EXPECT_NE(lines.find("which (default first)\n"), std::string::npos) << lines;
  EXPECT_NE(lines.find("window, default 64\n"), std::string::npos) << lines;  // not said twice
  EXPECT_NE(lines.find("-h, --help"), std::string::npos) << lines;
  EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), 6) << lines;
  EXPECT_EQ(lines.find("workload"), std::string::npos) << "positionals are not options";
}

TEST(CliHelp, ProgramHelpListsCommandsAndSaysHowToGetTheirHelp) {
  const std::string help = ProgramHelp(Example());
  EXPECT_NE(help.find("\n  record  records workloads\n"), std::string::npos) << help;
  EXPECT_NE(help.find("\n  info    summarises a file\n"), std::string::npos) << help;
  EXPECT_NE(help.find("ex COMMAND --help"), std::string::npos) << help;
  EXPECT_NE(help.find("Exit status"), std::string::npos) << help;
}

TEST(CliHelp, WantsHelpSkipsOptionValues) {
  const Command& record = Example().commands[0];
  EXPECT_TRUE(WantsHelp(record, {"mlp", "--help"}));
  EXPECT_TRUE(WantsHelp(record, {"-h"}));
  EXPECT_FALSE(WantsHelp(record, {"-o", "--help"}));  // a file named --help
  EXPECT_FALSE(WantsHelp(record, {"--", "--help"}));
}

TEST(CliComplete, CommandsFirst) {
  EXPECT_EQ(C({""}), (V{"record", "info", "help"}));
  EXPECT_EQ(C({"re"}), (V{"record"}));
  EXPECT_EQ(C({"--h"}), (V{"--help"}));
}

TEST(CliComplete, OptionsOfTheCommand) {
  EXPECT_EQ(C({"record", "--"}), (V{"--bucket", "--config", "--help", "--isa", "--keep", "--out"}));
  EXPECT_EQ(C({"record", "mlp", "--c"}), (V{"--config"}));
}

TEST(CliComplete, ValuesByTheirName) {
  EXPECT_EQ(C({"record", "-o", ""}), (V{"@files"}));
  EXPECT_EQ(C({"record", "--keep", "l"}), (V{"last"}));
  EXPECT_EQ(C({"record", "--config", ""}), (V{"sim", "board"}));
  EXPECT_EQ(C({"record", "--config=b"}), (V{"--config=board"}));
  EXPECT_EQ(C({"record", "--bucket", ""}), (V{}));
}

TEST(CliComplete, PositionalsByTheirName) {
  EXPECT_EQ(C({"record", "ml"}), (V{"mlp", "mlp-small"}));
  EXPECT_EQ(C({"record", "mlp", "--isa", "a"}), (V{"attn"}));  // repeatable
  EXPECT_EQ(C({"info", ""}), (V{"@files"}));
  EXPECT_EQ(C({"info", "x", ""}), (V{}));  // one FILE only
  EXPECT_EQ(C({"nope", ""}), (V{}));
}

}  // namespace
}  // namespace otpu::cli
