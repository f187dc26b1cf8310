package org.wixlib.cli;

/** Where long-running commands report progress (stderr in the CLI). */
public interface Progress {
  /** A progress line. */
  void progress(String line);

  /** A line shown only with -v. */
  void detail(String line);

  /** Reports nothing (tests). */
  Progress SILENT = new Progress() {
    @Override
    public void progress(String line) {}

    @Override
    public void detail(String line) {}
  };
}
