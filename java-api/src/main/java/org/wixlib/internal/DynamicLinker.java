package org.wixlib.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * What the system's dynamic linker says that {@link SymbolLookup#libraryLookup} does not: why a
 * library did not open ({@code dlerror}; the JDK reports only "Cannot open library") and which file
 * a symbol lives in ({@code dladdr}). Both are answers for messages only: every method returns null
 * where the C library offers no such function or the call fails.
 */
final class DynamicLinker {
  private static final int RTLD_NOW = 2;  // the same value on Linux and macOS
  private static final long DL_INFO_SIZE = 4 * ADDRESS.byteSize();  // fname, fbase, sname, saddr

  private DynamicLinker() {}

  /** The dynamic linker's error for opening {@code pathOrName} now, or null when it opens. */
  static String openError(String pathOrName) {
    try {
      MethodHandle dlopen = function("dlopen", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
      MethodHandle dlerror = function("dlerror", FunctionDescriptor.of(ADDRESS));
      MethodHandle dlclose = function("dlclose", FunctionDescriptor.of(JAVA_INT, ADDRESS));
      if (dlopen == null || dlerror == null || dlclose == null) {
        return null;
      }
      try (Arena a = Arena.ofConfined()) {
        MemorySegment handle = (MemorySegment) dlopen.invokeExact(a.allocateFrom(pathOrName), RTLD_NOW);
        if (handle.address() != 0) {
          int unused = (int) dlclose.invokeExact(handle);
          return null;
        }
        return string((MemorySegment) dlerror.invokeExact());
      }
    } catch (Throwable t) {
      return null;
    }
  }

  /** The file of the loaded library that holds {@code symbol}, or null when unknown. */
  static String fileOf(MemorySegment symbol) {
    try {
      MethodHandle dladdr = function("dladdr", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
      if (dladdr == null) {
        return null;
      }
      try (Arena a = Arena.ofConfined()) {
        MemorySegment info = a.allocate(DL_INFO_SIZE, ADDRESS.byteAlignment());
        if ((int) dladdr.invokeExact(symbol, info) == 0) {
          return null;
        }
        return string(info.get(ADDRESS, 0));
      }
    } catch (Throwable t) {
      return null;
    }
  }

  private static MethodHandle function(String name, FunctionDescriptor descriptor) {
    Linker linker = Linker.nativeLinker();
    Optional<MemorySegment> address = linker.defaultLookup().find(name);
    return address.map(a -> linker.downcallHandle(a, descriptor)).orElse(null);
  }

  private static String string(MemorySegment cString) {
    if (cString.address() == 0) {
      return null;
    }
    String s = cString.reinterpret(Long.MAX_VALUE).getString(0);
    return s.isEmpty() ? null : s;
  }
}
