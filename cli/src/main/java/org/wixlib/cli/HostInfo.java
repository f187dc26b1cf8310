package org.wixlib.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Facts about the host for report headers. */
final class HostInfo {
  private HostInfo() {}

  /** The CPU model from /proc/cpuinfo, else os.arch. */
  static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          int colon = line.indexOf(':');
          if (colon > 0) {
            return line.substring(colon + 1).trim();
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or not readable: fall back
    }
    return System.getProperty("os.arch", "unknown");
  }
}
