package org.wixlib.cli.shell;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.wixlib.HashTable;

/**
 * The named tables of one shell, script or {@code -c} run (a GPU table lives inside one process, so the
 * session holds them), the streams commands print to, and the cancel flag Ctrl-C sets.
 */
final class Session implements AutoCloseable {
  final PrintWriter out;
  final PrintWriter err;
  /** True for a person at a terminal: progress bars are drawn, Ctrl-C cancels the running command. */
  final boolean interactive;
  private final Map<String, HashTable> tables = new LinkedHashMap<>();
  private volatile boolean cancelRequested;
  /** Set by the exit command: leave the shell or script with exitCode. */
  boolean exitRequested;
  int exitCode;
  /** Where the running command came from, for messages ("script.wx line 3: "), or "". */
  String where = "";
  /** --quiet: the commands' messages (info) stay off stderr; errors do not. */
  boolean quiet;

  Session(PrintWriter out, PrintWriter err, boolean interactive) {
    this.out = out;
    this.err = err;
    this.interactive = interactive;
  }

  /** The table called name, or a ShellError naming the tables there are. */
  HashTable table(String name) {
    HashTable t = tables.get(name);
    if (t == null) {
      throw new ShellError("unknown table '" + name + "'" + (tables.isEmpty() ? " (no tables yet: create or load one)"
          : " (tables: " + String.join(", ", tables.keySet()) + ")"));
    }
    return t;
  }

  boolean has(String name) {
    return tables.containsKey(name);
  }

  /** Checks a new table name: a word, not taken yet. */
  void checkNewName(String name) {
    if (!name.matches("[A-Za-z_][A-Za-z0-9_.-]*")) {
      throw new ShellError("bad table name '" + name + "' (letters, digits, _ . -; starting with a letter or _)");
    }
    if (tables.containsKey(name)) {
      throw new ShellError("table '" + name + "' exists already (drop it first)");
    }
  }

  void add(String name, HashTable t) {
    checkNewName(name);
    tables.put(name, t);
  }

  /** Removes and frees the table. */
  void drop(String name) {
    table(name).close();
    tables.remove(name);
  }

  List<String> names() {
    return new ArrayList<>(tables.keySet());
  }

  Map<String, HashTable> tables() {
    return tables;
  }

  void requestCancel() {
    cancelRequested = true;
  }

  /** Clears the flag before a command runs. */
  void resetCancel() {
    cancelRequested = false;
  }

  /** Throws when Ctrl-C was pressed since the command started; long commands call it between chunks. */
  void checkCancelled(String what) {
    if (cancelRequested) {
      cancelRequested = false;
      throw ShellError.cancelled(what);
    }
  }

  /** Where CSV's header fields go: stderr, or nowhere when quiet. */
  PrintWriter meta() {
    return quiet ? null : err;
  }

  /** Messages go to stderr (none when quiet). */
  void info(String line) {
    if (quiet) {
      return;
    }
    err.println(line);
    err.flush();
  }

  @Override
  public void close() {
    for (HashTable t : tables.values()) {
      t.close();
    }
    tables.clear();
  }
}
