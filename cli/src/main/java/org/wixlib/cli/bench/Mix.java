package org.wixlib.cli.bench;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A mixed workload as percentages of insert, erase and find ops (the [ins, del, look] mixes of the GLHT
 * paper, e.g. 20,20,60).
 */
public record Mix(int insert, int erase, int find) {
  public Mix {
    if (insert < 0 || erase < 0 || find < 0 || insert + erase + find != 100) {
      throw new IllegalArgumentException("mix percentages must be >= 0 and add up to 100");
    }
  }

  @Override
  public String toString() {
    return insert + "/" + erase + "/" + find;
  }

  /** "I,D,F" or "I/D/F" → Mix; anything else is a usage error. */
  public static final class Converter implements ITypeConverter<Mix> {
    @Override
    public Mix convert(String value) {
      String[] parts = value.trim().split("[,/:]");
      if (parts.length != 3) {
        throw bad(value);
      }
      try {
        return new Mix(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()),
            Integer.parseInt(parts[2].trim()));
      } catch (IllegalArgumentException e) {
        throw bad(value);
      }
    }

    private static TypeConversionException bad(String value) {
      return new TypeConversionException("'" + value + "' is not a mix: give insert,erase,find"
          + " percentages that add up to 100, e.g. 20,20,60 (use / between them with --mix lists)");
    }
  }
}
