package org.wixlib.cli;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Counts as people write them: {@code 1000000}, {@code 1_000_000}, {@code 2^24}, {@code 16M} (decimal:
 * k = 10^3, M = 10^6, G = 10^9), {@code 16Mi} (binary: Ki = 2^10, Mi = 2^20, Gi = 2^30), {@code 1e6}.
 */
public final class CountConverter implements ITypeConverter<Long> {
  @Override
  public Long convert(String value) {
    return parse(value);
  }

  static long parse(String value) {
    String s = value.trim().replace("_", "");
    try {
      int caret = s.indexOf('^');
      if (caret > 0) {
        long base = Long.parseLong(s.substring(0, caret));
        int exp = Integer.parseInt(s.substring(caret + 1));
        if (base < 0 || exp < 0) {
          throw bad(value);
        }
        long r = 1;
        for (int i = 0; i < exp; i++) {
          r = Math.multiplyExact(r, base);
        }
        return r;
      }
      String lower = s.toLowerCase(Locale.ROOT);
      long mult = 1;
      String[][] suffixes = {
        {"ki", "1024"}, {"mi", "1048576"}, {"gi", "1073741824"},
        {"k", "1000"}, {"m", "1000000"}, {"g", "1000000000"}
      };
      for (String[] sfx : suffixes) {
        if (lower.endsWith(sfx[0])) {
          mult = Long.parseLong(sfx[1]);
          lower = lower.substring(0, lower.length() - sfx[0].length());
          break;
        }
      }
      long n;
      if (lower.contains("e") || lower.contains(".")) {
        double d = Double.parseDouble(lower) * mult;
        if (d != Math.rint(d) || d > Long.MAX_VALUE) {
          throw bad(value);
        }
        n = (long) d;
      } else {
        n = Math.multiplyExact(Long.parseLong(lower), mult);
      }
      if (n < 0) {
        throw bad(value);
      }
      return n;
    } catch (NumberFormatException | ArithmeticException e) {
      throw bad(value);
    }
  }

  private static TypeConversionException bad(String value) {
    return new TypeConversionException("'" + value + "' is not a count (examples: 1000000, 2^24, 16M, 16Mi, 1e6)");
  }
}
