package org.wixlib.cli;

import org.wixlib.NativeLibraryException;
import org.wixlib.NoDeviceException;
import org.wixlib.WixlibException;

/** The exit codes of wixlib and the exceptions that lead to them. */
public final class ExitCodes {
  public static final int OK = 0;
  public static final int ERROR = 1;
  public static final int USAGE = 2;
  /** No usable GPU for the requested kind, or the native library (or another part a command needs) is missing. */
  public static final int UNAVAILABLE = 3;

  private ExitCodes() {}

  public static int of(Throwable ex) {
    if (ex instanceof NoDeviceException || ex instanceof NativeLibraryException
        || ex instanceof KindUnavailableException || ex instanceof NotInstalledException) {
      return UNAVAILABLE;
    }
    if (ex instanceof ExceptionInInitializerError || ex instanceof UnsatisfiedLinkError) {
      return UNAVAILABLE;
    }
    return ERROR;
  }

  /** One line for stderr: the message, prefixed with the native status name where there is one. */
  public static String message(Throwable ex) {
    String msg = ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage();
    if (msg.startsWith("wixlib: ")) {
      msg = msg.substring("wixlib: ".length()); // the caller adds the prefix once
    }
    if (ex instanceof WixlibException w && w.status() >= 0 && !(ex instanceof NoDeviceException)
        && !msg.startsWith(w.statusName() + ":")) { // native failures carry the name already
      return w.statusName() + ": " + msg;
    }
    return msg;
  }
}
