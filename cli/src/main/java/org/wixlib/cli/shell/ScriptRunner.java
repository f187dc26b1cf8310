package org.wixlib.cli.shell;

import java.util.List;
import org.wixlib.cli.ExitCodes;
import picocli.CommandLine;

/**
 * Runs session commands line by line (a script, -c, or piped shell input): the first failing command
 * stops the run with its line number and its exit code, unless keepGoing; then the run goes on and
 * ends with the first failure's code.
 */
final class ScriptRunner {
  private final Session session;
  private final CommandLine commands;
  private final boolean keepGoing;
  private int firstFailure;
  private long failures;

  ScriptRunner(Session session, boolean keepGoing) {
    this.session = session;
    this.commands = CommandTree.build(session);
    this.keepGoing = keepGoing;
  }

  CommandLine commands() {
    return commands;
  }

  /**
   * Runs one line; returns false when the run must stop (a failure without keepGoing, or exit).
   * where names the line in messages ("script.wx line 3"), or is empty.
   */
  boolean line(String text, String where) {
    session.where = where.isEmpty() ? "" : where + ": ";
    List<List<String>> cmds;
    try {
      cmds = LineSplitter.split(text);
    } catch (ShellError e) {
      return fail(ExitCodes.USAGE, e.getMessage());
    }
    for (List<String> words : cmds) {
      session.resetCancel();
      int code = commands.execute(words.toArray(new String[0]));
      session.out.flush();
      session.err.flush();
      if (session.exitRequested) {
        return false;
      }
      if (code != ExitCodes.OK) {
        failures++;
        if (firstFailure == 0) {
          firstFailure = code;
        }
        if (!keepGoing) {
          return false;
        }
      }
    }
    return true;
  }

  private boolean fail(int code, String message) {
    session.err.println("wixlib: " + session.where + message);
    session.err.flush();
    failures++;
    if (firstFailure == 0) {
      firstFailure = code;
    }
    return keepGoing;
  }

  /** Runs every line of a script; the exit code of the run. */
  int script(List<String> lines, String name) {
    for (int i = 0; i < lines.size(); i++) {
      String where = name + " line " + (i + 1);
      if (!line(lines.get(i), where)) {
        if (!session.exitRequested) {
          session.err.println("wixlib: stopped at " + where + " (--keep-going runs the rest)");
        }
        break;
      }
    }
    return exitCode();
  }

  /** exit's code when it ran, else the first failure's code (0 when none). */
  int exitCode() {
    if (session.exitRequested) {
      return session.exitCode;
    }
    if (failures > 0 && keepGoing) {
      session.err.println("wixlib: " + failures + " command" + (failures == 1 ? "" : "s") + " failed");
    }
    return firstFailure;
  }
}
