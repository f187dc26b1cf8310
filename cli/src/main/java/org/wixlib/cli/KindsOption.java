package org.wixlib.cli;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import org.wixlib.TableKind;
import picocli.CommandLine.Option;

/** Mixin: --kind of a command that runs one or more table kinds. */
public final class KindsOption {
  @Option(
      names = {"-k", "--kind"},
      paramLabel = "KIND",
      split = ",",
      converter = KindConverter.class,
      description = {KindOption.DESCRIPTION, "Several may be given: --kind cpu,glht,hive.", KindOption.DEFAULT})
  public List<TableKind> asked = new ArrayList<>();

  /** The kinds asked for, each once in the order given, or the default kind. */
  public List<TableKind> kinds() {
    return asked.isEmpty() ? List.of(TableOptions.defaultKind()) : new ArrayList<>(new LinkedHashSet<>(asked));
  }
}
