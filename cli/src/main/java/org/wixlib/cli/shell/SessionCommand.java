package org.wixlib.cli.shell;

import java.util.concurrent.Callable;
import org.wixlib.HashTable;
import org.wixlib.cli.ExitCodes;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Base of the shell's commands: the session they act on (set by {@link CommandTree}'s factory). */
abstract class SessionCommand implements Callable<Integer> {
  Session session;
  @Spec CommandSpec spec;

  HashTable table(String name) {
    return session.table(name);
  }

  /** The command's work; returns normally on success (exit code 0), throws otherwise. */
  abstract void execute() throws Exception;

  @Override
  public Integer call() throws Exception {
    execute();
    return ExitCodes.OK;
  }
}
