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

  /** Where the running command came from, and where the last failure happened, as messages name them. */
  private String currentWhere = "";
  private String failedAt = "";

  /**
   * Runs one line; returns false when the run must stop (a failure without keepGoing, or exit).
   * where names the line in messages ("script.wx line 3"), or is empty; a line of several commands
   * names each one too, so an error says which of them failed.
   */
  boolean line(String text, String where) {
    setWhere(where);
    List<List<String>> cmds;
    try {
      cmds = LineSplitter.split(text);
    } catch (ShellError e) {
      return fail(ExitCodes.USAGE, e.getMessage());
    }
    for (int c = 0; c < cmds.size(); c++) {
      List<String> words = cmds.get(c);
      if (cmds.size() > 1) {
        setWhere((where.isEmpty() ? "" : where + ", ") + "command " + (c + 1) + " (" + String.join(" ", words) + ")");
      }
      session.resetCancel();
      int code = commands.execute(words.toArray(new String[0]));
      session.out.flush();
      session.err.flush();
      if (session.exitRequested) {
        return false;
      }
      if (code != ExitCodes.OK) {
        failedAt = currentWhere;
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

  private void setWhere(String where) {
    currentWhere = where;
    session.where = where.isEmpty() ? "" : where + ": ";
  }

  private boolean fail(int code, String message) {
    session.err.println("wixlib: " + session.where + message);
    session.err.flush();
    failedAt = currentWhere;
    failures++;
    if (firstFailure == 0) {
      firstFailure = code;
    }
    return keepGoing;
  }

  /**
   * Runs every line of a script; the exit code of the run. Lines are named "NAME line N", except the
   * one line of a one-line -c, which is just "-c".
   */
  int script(List<String> lines, String name) {
    boolean oneLine = lines.size() == 1 && name.equals("-c");
    for (int i = 0; i < lines.size(); i++) {
      String where = oneLine ? name : name + " line " + (i + 1);
      if (!line(lines.get(i), where)) {
        if (!session.exitRequested) {
          session.err.println("wixlib: stopped at " + failedAt + " (--keep-going runs the rest)");
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
