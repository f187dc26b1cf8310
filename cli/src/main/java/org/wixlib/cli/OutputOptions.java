package org.wixlib.cli;

import java.io.PrintWriter;
import org.wixlib.cli.report.Format;
import org.wixlib.cli.report.Report;
import org.wixlib.cli.report.ReportWriter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Mixin: --format and --verbose, with the command's stdout (data) and stderr (progress, logs). */
public final class OutputOptions implements Progress {
  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "table",
      description = "Output format of the data on stdout: table, csv or json (default: ${DEFAULT-VALUE}).")
  public Format format = Format.TABLE;

  @Option(
      names = {"-v", "--verbose"},
      description = "More progress detail on stderr, and stack traces on errors.")
  boolean verbose;

  @Option(names = "--quiet", description = "Nothing on stderr but errors: no progress, no notes.")
  boolean quiet;

  public PrintWriter out() {
    return spec.commandLine().getOut();
  }

  public PrintWriter err() {
    return spec.commandLine().getErr();
  }

  /** The report on stdout in the chosen format; CSV's header fields go to stderr (not with --quiet). */
  public void write(Report r) {
    ReportWriter.write(r, format, out(), quiet ? null : err());
  }

  /** A progress line on stderr (none with --quiet). */
  @Override
  public void progress(String line) {
    if (quiet) {
      return;
    }
    PrintWriter err = err();
    err.println(line);
    err.flush();
  }

  /** A progress line on stderr, only with -v (and without --quiet). */
  @Override
  public void detail(String line) {
    if (verbose && !quiet) {
      progress(line);
    }
  }
}
