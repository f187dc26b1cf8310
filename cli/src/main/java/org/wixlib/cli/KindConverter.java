package org.wixlib.cli;

import java.util.Locale;
import org.wixlib.TableKind;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** "cpu" / "glht" / "hive" (any case) to a {@link TableKind}; anything else is a usage error. */
public final class KindConverter implements ITypeConverter<TableKind> {
  @Override
  public TableKind convert(String value) {
    String v = value.trim().toUpperCase(Locale.ROOT);
    for (TableKind k : TableKind.values()) {
      if (k.name().equals(v)) {
        return k;
      }
    }
    throw new TypeConversionException("unknown kind '" + value + "' (expected cpu, glht or hive)");
  }
}
