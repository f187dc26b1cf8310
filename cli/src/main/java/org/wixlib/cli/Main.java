package org.wixlib.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.wixlib.cli.bench.BenchCommand;
import org.wixlib.cli.join.JoinCommand;
import org.wixlib.cli.shell.RunCommand;
import org.wixlib.cli.shell.ShellCommand;
import org.wixlib.cli.verify.VerifyCommand;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** The {@code wixlib} command: entry point, sub-commands and the exit-code policy. */
@Command(
    name = "wixlib",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "GPU hash tables (GLHT, Hive) and a concurrent CPU hopscotch table, driven from Java.",
      "Data goes to stdout, progress and logs to stderr."
    },
    subcommands = {InfoCommand.class, BenchCommand.class, VerifyCommand.class, JoinCommand.class, ShellCommand.class,
        RunCommand.class, AutoComplete.GenerateCompletion.class, CommandLine.HelpCommand.class},
    footerHeading = "%nExit codes:%n",
    footer = {
      "  0  success",
      "  1  error (a failed check, a failed call)",
      "  2  usage error (unknown option or command, bad value)",
      "  3  no usable GPU for the requested kind, or libwixlib.so missing",
      "",
      "Examples:",
      "  wixlib info",
      "  wixlib bench --kind cpu --keys 2^20",
      "  wixlib verify --kind cpu --ops 10M",
      "  wixlib join --sf 1 --kind glht,hive,cpu",
      "  wixlib shell",
      "  wixlib -c 'create t --kind cpu; insert t --random 1M; stats t'",
      "  source <(wixlib generate-completion)    (bash/zsh completion of commands and options)"
    })
public final class Main implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "-c", paramLabel = "COMMANDS",
      description = "Run session commands (those of 'wixlib shell', separated by ';' or newlines) and exit.")
  String commands;

  @Option(names = "--keep-going", description = "With -c: run the rest after a failing command.")
  boolean keepGoing;

  @Option(names = "--quiet", description = "With -c: nothing on stderr but errors (no messages of the commands).")
  boolean quiet;

  @Override
  public Integer call() {
    if (commands != null) {
      return RunCommand.runLines(spec, List.of(commands.split("\\R", -1)), "-c", keepGoing, quiet);
    }
    // `wixlib` alone: show what there is to do.
    spec.commandLine().usage(spec.commandLine().getErr());
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand");
  }

  public static void main(String... args) {
    PrintWriter out = new PrintWriter(System.out, true);
    PrintWriter err = new PrintWriter(System.err, true);
    int code = run(out, err, args);
    out.flush();
    err.flush();
    System.exit(code);
  }

  /** Runs the command line with the given streams and returns the exit code (for tests too). */
  public static int run(PrintWriter out, PrintWriter err, String... args) {
    CommandLine cl = commandLine();
    cl.setOut(out);
    cl.setErr(err);
    try {
      return cl.execute(args);
    } catch (OutOfMemoryError e) {
      // A run no check foresaw (a check refuses known sizes before allocating): one line, exit 1.
      err.println("wixlib: out of Java heap (" + HeapTooSmallException.gib(Runtime.getRuntime().maxMemory())
          + ", -Xmx): ask for less, or raise the heap, e.g. WIXLIB_JAVA_OPTS=-Xmx" + 2 * Math.max(1,
          Runtime.getRuntime().maxMemory() >> 30) + "g bin/wixlib ...");
      return ExitCodes.ERROR;
    } finally {
      out.flush();
      err.flush();
    }
  }

  /** The configured command tree. */
  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Main());
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    // picocli hides its completion-script command; wixlib lists it.
    cl.getSubcommands().get("generate-completion").getCommandSpec().usageMessage().hidden(false);
    cl.setExecutionExceptionHandler(Main::handleException);
    cl.setParameterExceptionHandler(Main::handleParameterException);
    return cl;
  }

  private static int handleParameterException(CommandLine.ParameterException ex, String[] args) {
    CommandLine cl = ex.getCommandLine();
    PrintWriter err = cl.getErr();
    err.println("wixlib: " + ex.getMessage());
    if (!CommandLine.UnmatchedArgumentException.printSuggestions(ex, err)) {
      err.println("Try '" + cl.getCommandSpec().qualifiedName() + " --help' for more information.");
    }
    err.flush();
    return ExitCodes.USAGE;
  }

  private static int handleException(Exception ex, CommandLine cl, ParseResult parsed) {
    PrintWriter err = cl.getErr();
    int code = ExitCodes.of(ex);
    err.println("wixlib: " + ExitCodes.message(ex));
    if (isVerbose(parsed)) {
      ex.printStackTrace(err);
    } else if (code == ExitCodes.ERROR && !(ex instanceof CheckFailedException || ex instanceof HeapTooSmallException)) {
      err.println("(run with -v for the stack trace)");
    }
    err.flush();
    return code;
  }

  private static boolean isVerbose(ParseResult parsed) {
    for (ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (p.hasMatchedOption("--verbose")) {
        return true;
      }
      if (!p.hasSubcommand()) {
        break;
      }
    }
    return false;
  }
}
