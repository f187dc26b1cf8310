package org.wixlib.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.wixlib.Wixlib;
import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the CLI, Java API and native versions, CUDA runtime and driver. */
public final class VersionProvider implements IVersionProvider {
  /** A property of the filtered resource the build writes (wixlib-cli.properties), or null. */
  public static String buildProperty(String key) {
    try (InputStream in = VersionProvider.class.getResourceAsStream("wixlib-cli.properties")) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        String v = p.getProperty(key);
        return v == null || v.startsWith("$") ? null : v;
      }
    } catch (IOException e) {
      // no resource: unknown
    }
    return null;
  }

  /** Version of this CLI, from the filtered resource the build writes. */
  static String cliVersion() {
    try (InputStream in = VersionProvider.class.getResourceAsStream("wixlib-cli.properties")) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        String v = p.getProperty("version");
        if (v != null && !v.startsWith("$")) {
          return v;
        }
      }
    } catch (IOException e) {
      // fall through to the manifest
    }
    String v = VersionProvider.class.getPackage().getImplementationVersion();
    return v == null ? "unknown" : v;
  }

  @Override
  public String[] getVersion() {
    String nativeLine;
    String cudaLine;
    try {
      Wixlib.Info info = Wixlib.info();
      nativeLine = "libwixlib " + info.nativeVersion() + ", Java API " + info.javaApiVersion();
      cudaLine = "CUDA runtime " + Texts.cudaVersion(info.cudaRuntimeVersion())
          + ", driver " + Texts.cudaVersion(info.cudaDriverVersion());
    } catch (RuntimeException | LinkageError e) {
      nativeLine = "libwixlib unavailable: " + e.getMessage();
      cudaLine = "CUDA unknown";
    }
    return new String[] {
      "wixlib CLI " + cliVersion(),
      nativeLine,
      cudaLine,
      "Java " + Runtime.version() + " (" + System.getProperty("java.vm.name", "?") + ")"
    };
  }
}
