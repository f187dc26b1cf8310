package org.wixlib.cli;

import org.wixlib.TableKind;
import picocli.CommandLine.Option;

/** Mixin: --kind of a command that runs one table. */
public final class KindOption {
  public static final String DESCRIPTION = "Table kind: cpu (concurrent hopscotch on the host), glht (GPU lock-free"
      + " hopscotch) or hive (GPU bucketed cuckoo).";
  public static final String DEFAULT = "Default: glht when a GPU is usable, else cpu.";

  @Option(
      names = {"-k", "--kind"},
      paramLabel = "KIND",
      converter = KindConverter.class,
      description = {DESCRIPTION, DEFAULT})
  public TableKind kind;

  /** The kind asked for, or the default kind. */
  public TableKind kind() {
    return kind != null ? kind : TableOptions.defaultKind();
  }
}
