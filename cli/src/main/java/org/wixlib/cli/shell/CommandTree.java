package org.wixlib.cli.shell;

import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import org.wixlib.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The command tree of a session, shared by {@code wixlib shell}, {@code wixlib run SCRIPT} and
 * {@code wixlib -c}: each line's words are parsed and run by the same picocli tree, whose commands get
 * the session from the factory.
 */
@Command(
    name = "",
    customSynopsis = "COMMAND [ARGS...]   (several on a line: cmd; cmd   # comment)",
    sortOptions = false,
    description = "Commands of a wixlib session (shell, run SCRIPT, -c); 'help COMMAND' shows one in full.",
    subcommands = {
      TableCommands.Create.class, DataCommands.InsertCmd.class, DataCommands.Upsert.class, DataCommands.Find.class,
      DataCommands.Contains.class, DataCommands.Erase.class, TableCommands.Resize.class, TableCommands.Stats.class,
      TableCommands.Tables.class, TableCommands.Save.class, TableCommands.Load.class, TableCommands.Drop.class,
      TableBench.class, CommandLine.HelpCommand.class, CommandTree.Exit.class
    })
final class CommandTree implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing command");
  }

  @Command(name = "exit", aliases = "quit", description = "Ends the session (or the script), freeing its tables.")
  static final class Exit extends SessionCommand {
    @Parameters(paramLabel = "CODE", arity = "0..1", defaultValue = "0", description = "Exit code (default: 0).")
    int code;

    @Override
    void execute() {
      session.exitRequested = true;
      session.exitCode = code;
    }
  }

  /** The tree bound to a session; its output goes to the session's streams. */
  static CommandLine build(Session session) {
    CommandLine.IFactory factory = new CommandLine.IFactory() {
      @Override
      public <K> K create(Class<K> cls) throws Exception {
        K o = CommandLine.defaultFactory().create(cls);
        if (o instanceof SessionCommand c) {
          c.session = session;
        }
        return o;
      }
    };
    CommandLine cl = new CommandLine(new CommandTree(), factory);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    // Keys may be negative: "insert t -5=3", "find t -5". Words that match no option reach KeySource,
    // which takes numbers and refuses anything else that starts with '-' as an unknown option.
    for (String data : KeySource.COMMANDS) {
      cl.getSubcommands().get(data).setUnmatchedOptionsArePositionalParams(true);
    }
    cl.setOut(session.out);
    cl.setErr(session.err);
    cl.setExecutionExceptionHandler((ex, line, parsed) -> failed(session, ex, parsed));
    cl.setParameterExceptionHandler((ex, args) -> {
      PrintWriter err = session.err;
      if (ex instanceof CommandLine.UnmatchedArgumentException u && u.getCommandLine().getParent() == null
          && args.length > 0 && !args[0].startsWith("-")) {
        err.println("wixlib: " + session.where + "unknown command '" + args[0] + "' ('help' lists the commands)");
        CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
        err.flush();
        return ExitCodes.USAGE;
      }
      err.println("wixlib: " + session.where + ex.getMessage());
      if (!CommandLine.UnmatchedArgumentException.printSuggestions(ex, err)) {
        String q = ex.getCommandLine().getCommandName();
        err.println("Try 'help" + (q.isEmpty() ? "" : " " + q) + "'.");
      }
      err.flush();
      return ExitCodes.USAGE;
    });
    return cl;
  }

  private static int failed(Session session, Exception ex, ParseResult parsed) {
    String msg;
    if (ex instanceof NoSuchFileException e) {
      msg = e.getFile() + ": " + (e.getReason() != null ? e.getReason() : "no such file");
    } else if (ex instanceof AccessDeniedException e) {
      msg = e.getFile() + ": " + (e.getReason() != null ? e.getReason() : "permission denied");
    } else if (ex instanceof java.io.IOException && ex.getMessage() == null) {
      msg = ex.getClass().getSimpleName();
    } else {
      msg = ExitCodes.message(ex);
    }
    session.err.println("wixlib: " + session.where + msg);
    session.err.flush();
    return ExitCodes.of(ex);
  }
}
