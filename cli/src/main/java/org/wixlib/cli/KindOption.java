package org.wixlib.cli;

import org.wixlib.TableKind;
import picocli.CommandLine.Option;

/** Mixin: --kind of a command that runs one table. */
final class KindOption {
  static final String DESCRIPTION = "Table kind: cpu (concurrent hopscotch on the host), glht (GPU lock-free"
      + " hopscotch) or hive (GPU bucketed cuckoo).";
  static final String DEFAULT = "Default: glht when a GPU is usable, else cpu.";

  @Option(
      names = {"-k", "--kind"},
      paramLabel = "KIND",
      converter = KindConverter.class,
      description = {DESCRIPTION, DEFAULT})
  TableKind kind;

  /** The kind asked for, or the default kind. */
  TableKind kind() {
    return kind != null ? kind : TableOptions.defaultKind();
  }
}
