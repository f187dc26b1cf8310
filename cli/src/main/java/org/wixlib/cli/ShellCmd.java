package org.wixlib.cli;

import java.util.concurrent.Callable;
import org.wixlib.HashTable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Base of the shell's commands: the session they act on (set by {@link ShellCommands}'s factory). */
abstract class ShellCmd implements Callable<Integer> {
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
