package org.wixlib.cli.shell;

import java.nio.file.Path;
import java.util.Arrays;
import org.wixlib.HashTable;
import org.wixlib.Outcome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Shell commands on keys: insert, upsert, find, contains, erase. */
final class DataCommands {
  private DataCommands() {}

  /** Counts of outcome bytes. */
  static long[] count(byte[] outcomes, long[] into) {
    for (byte o : outcomes) {
      into[o]++;
    }
    return into;
  }

  abstract static class Insert extends SessionCommand {
    @Mixin KeySource source;

    abstract boolean assign();

    @Override
    void execute() {
      String name = source.table;
      HashTable t = table(name);
      KeyData d = source.read(session, true, KeyBits.of(t));
      if (assign() && !d.hasValues()) {
        throw new ShellError("upsert needs values: KEY=VALUE words, a file with a value column, or --random N");
      }
      long[] counts = new long[16];
      Chunks.run(session, (assign() ? "upsert " : "insert ") + name, d.size(), (from, to) -> {
        long[] k = Arrays.copyOfRange(d.keys(), from, to);
        long[] v = d.hasValues() ? Arrays.copyOfRange(d.values(), from, to) : null;
        byte[] o = new byte[k.length];
        TableColumns.insert(t, k, v, o, assign());
        count(o, counts);
      });
      StringBuilder m = new StringBuilder(name + ": " + counts[Outcome.INSERTED] + " inserted");
      if (assign()) {
        m.append(", ").append(counts[Outcome.ASSIGNED]).append(" assigned");
      } else {
        m.append(", ").append(counts[Outcome.PRESENT]).append(" already present");
      }
      if (counts[Outcome.FULL] > 0) {
        m.append(", ").append(counts[Outcome.FULL]).append(" not stored (table full)");
      }
      session.info(m.append("; size ").append(t.size()).toString());
      if (counts[Outcome.FULL] > 0) {
        throw new ShellError(name + ": " + counts[Outcome.FULL] + " keys did not fit (the table's grow policy is never)");
      }
    }
  }

  @Command(name = "insert", description = "Inserts keys that are not present yet (present keys keep their value; "
      + "no value means 0).",
      footer = {"Examples:", "  insert t 1=10 2=20 3=30", "  insert t --from keys.csv --skip-bad",
          "  insert t --random 1M --seed 7"})
  static final class InsertCmd extends Insert {
    @Override
    boolean assign() {
      return false;
    }
  }

  @Command(name = "upsert", description = "Inserts keys or replaces the value of present ones (values required).",
      footer = {"Examples:", "  upsert t 1=11 4=40", "  upsert t --from pairs.i32kv"})
  static final class Upsert extends Insert {
    @Override
    boolean assign() {
      return true;
    }
  }

  /** Options of commands that look keys up and print or write one result per key. */
  abstract static class Lookup extends SessionCommand {
    @Mixin KeySource source;

    @Option(names = {"-o", "--to"}, paramLabel = "FILE",
        description = "Write the results to FILE (csv/tsv: key,result lines; i32/i64: one result per key) "
            + "instead of stdout.")
    Path to;

    @Option(names = "--to-format", paramLabel = "FORMAT", description = "Format of --to (default: from the extension).")
    DataFormat toFormat;

    /**
     * The results to the --to file, or one "key TAB result" line per key on stdout (the value, '-' when
     * absent; true/false where there are no values); then how many keys were found, on stderr.
     */
    void report(String name, KeyBits width, long[] keys, long[] values, boolean[] found, String column,
        long notFound, String foundWord) {
      long hits = 0;
      for (boolean b : found) {
        hits += b ? 1 : 0;
      }
      if (to != null) {
        KeyFileWriter.write(to, toFormat, keys, values, found, column, notFound, width);
      } else {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < keys.length; i++) {
          sb.append(width.text(keys[i])).append('\t')
              .append(values == null ? Boolean.toString(found[i]) : found[i] ? width.text(values[i]) : "-")
              .append('\n');
        }
        session.out.print(sb);
        session.out.flush();
      }
      session.info(name + ": " + hits + " of " + keys.length + " " + foundWord
          + (to != null ? ", written to " + to : ""));
    }
  }

  @Command(name = "find", description = "Prints the value of each key (to stdout: key TAB value, '-' when absent).",
      footer = {"Examples:", "  find t 1 2 3", "  find t --from keys.csv --to values.csv"})
  static final class Find extends Lookup {
    @Option(names = "--not-found", paramLabel = "V", defaultValue = "-1",
        description = "Value written for absent keys to a binary --to file (default: ${DEFAULT-VALUE}).")
    long notFound;

    @Override
    void execute() {
      String name = source.table;
      HashTable t = table(name);
      KeyBits width = KeyBits.of(t);
      KeyData d = source.read(session, false, width);
      int n = d.size();
      long[] values = new long[n];
      boolean[] found = new boolean[n];
      Chunks.run(session, "find " + name, n, (from, to) -> {
        long[] k = Arrays.copyOfRange(d.keys(), from, to);
        boolean[] f = TableColumns.contains(t, k);
        long[] v = TableColumns.find(t, k, notFound);
        System.arraycopy(v, 0, values, from, v.length);
        System.arraycopy(f, 0, found, from, f.length);
      });
      report(name, width, d.keys(), values, found, "value", notFound, "found");
    }
  }

  @Command(name = "contains", description = "Tells whether each key is present (to stdout: key TAB true|false).",
      footer = {"Examples:", "  contains t 1 2 3", "  contains t --from keys.i32 --to present.csv"})
  static final class Contains extends Lookup {
    @Override
    void execute() {
      String name = source.table;
      HashTable t = table(name);
      KeyBits width = KeyBits.of(t);
      KeyData d = source.read(session, false, width);
      int n = d.size();
      boolean[] found = new boolean[n];
      Chunks.run(session, "contains " + name, n, (from, to) -> {
        boolean[] f = TableColumns.contains(t, Arrays.copyOfRange(d.keys(), from, to));
        System.arraycopy(f, 0, found, from, f.length);
      });
      report(name, width, d.keys(), null, found, "present", 0, "present");
    }
  }

  @Command(name = "erase", description = "Removes keys (absent keys are counted, not an error).",
      footer = {"Examples:", "  erase t 1 2", "  erase t --from old.csv"})
  static final class Erase extends SessionCommand {
    @Mixin KeySource source;

    @Override
    void execute() {
      String name = source.table;
      HashTable t = table(name);
      KeyData d = source.read(session, false, KeyBits.of(t));
      long[] counts = new long[16];
      Chunks.run(session, "erase " + name, d.size(), (from, to) -> {
        long[] k = Arrays.copyOfRange(d.keys(), from, to);
        byte[] o = new byte[k.length];
        TableColumns.erase(t, k, o);
        count(o, counts);
      });
      session.info(name + ": " + counts[Outcome.ERASED] + " erased, " + counts[Outcome.NOT_FOUND] + " absent; size "
          + t.size());
    }
  }
}
