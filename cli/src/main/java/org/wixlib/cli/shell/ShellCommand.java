package org.wixlib.cli.shell;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.wixlib.cli.VersionProvider;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code wixlib shell}: a session holding named tables. At a terminal: line editing, history and
 * completion (JLine), and Ctrl-C cancels the running command, not the session. With standard input
 * not a terminal it reads plain lines, reports failures with their line numbers, goes on, and exits
 * with the first failure's code.
 */
@Command(
    name = "shell",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "An interactive session holding named tables (GPU tables live in this process): create, insert,"
          + " upsert, find, contains, erase, resize, stats, tables, save, load, drop, bench, help, exit."
          + " Type 'help' inside for the commands, 'help COMMAND' for one; Tab completes commands, table"
          + " names and options; Ctrl-C cancels the running command; Ctrl-D or 'exit' leaves."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  wixlib shell",
      "  wixlib shell < session.wx          (plain lines, going on after errors)",
      "",
      "  wixlib> create t --kind hive --capacity 2^20",
      "  wixlib> insert t --random 1M --seed 7",
      "  wixlib> stats t",
      "  wixlib> save t t.wxs"
    })
public final class ShellCommand implements Callable<Integer> {
  static final String PROMPT = "wixlib> ";

  @Spec CommandSpec spec;

  @Option(names = "--history", paramLabel = "FILE",
      description = "History file of the interactive shell (default: ~/.wixlib_history).")
  Path history;

  @Option(names = "--plain", description = "Read plain lines even at a terminal (no line editing).")
  boolean plain;

  @Option(names = "--quiet", description = "Input not from a terminal: nothing on stderr but errors (no messages of "
      + "the commands).")
  boolean quiet;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    java.io.Console console = System.console();
    boolean tty = !plain && console != null && console.isTerminal();
    if (tty) {
      Path h = history != null ? history : Path.of(System.getProperty("user.home"), ".wixlib_history");
      return InteractiveShell.run(out, err, h);
    }
    try (Session s = new Session(out, err, false)) {
      s.quiet = quiet;
      ScriptRunner runner = new ScriptRunner(s, true);
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      String line;
      long no = 0;
      while ((line = in.readLine()) != null) {
        no++;
        if (!runner.line(line, "line " + no) && s.exitRequested) {
          break;
        }
      }
      return runner.exitCode();
    }
  }
}
