package org.wixlib.cli.shell;

import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.wixlib.cli.CountConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Mixin: where a command's keys come from: words on the line (KEY or KEY=VALUE), --from FILE, or
 * --random N. Everything is read and checked before anything is applied.
 */
final class KeySource {
  /** The commands that take keys on the line (and so negative numbers as keys, not options). */
  static final String[] COMMANDS = {"insert", "upsert", "find", "contains", "erase"};

  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "TABLE", description = "The table.")
  String table;

  @Parameters(index = "1..*", paramLabel = "KEY", description = "Keys on the line: KEY, or KEY=VALUE where a value is used.")
  List<String> words;

  @Option(names = {"-f", "--from"}, paramLabel = "FILE",
      description = "Read keys (and values) from FILE: CSV/TSV with an optional header, or raw little-endian int32/int64.")
  Path from;

  @Option(names = "--format", paramLabel = "FORMAT",
      description = "Format of --from: " + DataFormat.NAMES + " (default: from the extension).")
  DataFormat format;

  @Option(names = "--skip-bad", description = "Leave bad lines of --from out (and count them) instead of applying nothing.")
  boolean skipBad;

  @Option(names = "--random", paramLabel = "N", converter = CountConverter.class,
      description = "N random keys (with random values), from --seed.")
  Long random;

  @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Seed of --random (default: ${DEFAULT-VALUE}).")
  long seed;

  /** The keys (and values) asked for, of the table's width; exactly one source must be given. */
  KeyData read(Session session, boolean valuesAllowed, KeyBits width) {
    if (table.startsWith("-")) {
      throw new ParameterException(spec.commandLine(), "Unknown option: '" + table + "'");
    }
    for (String w : words == null ? List.<String>of() : words) {
      if (w.startsWith("-") && width.parse(w.indexOf('=') < 0 ? w : w.substring(0, w.indexOf('='))) == null) {
        throw new ParameterException(spec.commandLine(), "Unknown option: '" + w + "'");
      }
    }
    int sources = (words != null && !words.isEmpty() ? 1 : 0) + (from != null ? 1 : 0) + (random != null ? 1 : 0);
    if (sources != 1) {
      throw new ShellError(sources == 0 ? "no keys: give KEY..., --from FILE" + (valuesAllowed ? " or --random N" : "")
          : "give only one of KEY..., --from FILE, --random N");
    }
    if (random != null) {
      if (!valuesAllowed) {
        throw new ShellError("--random is for insert and upsert");
      }
      return random(random, seed, width);
    }
    if (from != null) {
      return KeyFileReader.read(from, format, skipBad, width, session);
    }
    return fromWords(words, valuesAllowed, width);
  }

  static KeyData fromWords(List<String> words, boolean valuesAllowed, KeyBits width) {
    int n = words.size();
    long[] keys = new long[n];
    long[] values = null;
    for (int i = 0; i < n; i++) {
      String w = words.get(i);
      int eq = w.indexOf('=');
      String k = eq < 0 ? w : w.substring(0, eq);
      Long key = width.parse(k);
      if (key == null) {
        throw new ShellError("'" + k + "' is not a " + width.noun() + " key");
      }
      if (width.isReserved(key)) {
        throw new ShellError("key " + k + " is reserved (" + width.reserved + ")");
      }
      keys[i] = key;
      if (eq >= 0) {
        if (!valuesAllowed) {
          throw new ShellError("'" + w + "': this command takes keys only");
        }
        Long v = width.parse(w.substring(eq + 1));
        if (v == null) {
          throw new ShellError("'" + w.substring(eq + 1) + "' is not a " + width.noun() + " value");
        }
        if (values == null) {
          if (i > 0) {
            throw new ShellError("give a value to every key or to none ('" + w + "')");
          }
          values = new long[n];
        }
        values[i] = v;
      } else if (values != null) {
        throw new ShellError("give a value to every key or to none ('" + w + "')");
      }
    }
    return new KeyData(keys, values, 0);
  }

  /** count random keys of the width (never reserved) with random values. */
  static KeyData random(long count, long seed, KeyBits width) {
    if (count > Integer.MAX_VALUE - 8) {
      throw new ShellError("--random " + count + " is more than one command can hold");
    }
    int n = (int) count;
    SplittableRandom r = new SplittableRandom(seed);
    long[] keys = new long[n];
    long[] values = new long[n];
    for (int i = 0; i < n; i++) {
      long k;
      do {
        k = width.held(r.nextLong());
      } while (width.isReserved(k));
      keys[i] = k;
      values[i] = width.held(r.nextLong());
    }
    return new KeyData(keys, values, 0);
  }
}
