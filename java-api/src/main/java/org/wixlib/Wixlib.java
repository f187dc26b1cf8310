package org.wixlib;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.wixlib.internal.Native;
import org.wixlib.internal.NativeLoader;

/** Library-wide queries: versions, available table kinds, CUDA devices. */
public final class Wixlib {
  private Wixlib() {}

  /**
   * What this process can use.
   *
   * @param nativeVersion version string of libwixlib.so
   * @param javaApiVersion version of this jar
   * @param availableKinds kinds this build has and (for GPU kinds) a usable device exists for
   * @param devices CUDA devices (empty without a device, driver or CUDA build); a device listed here
   *     may still be unusable (a GPU older than the build's architectures)
   * @param cudaRuntimeVersion 1000*major + 10*minor, 0 when absent
   * @param cudaDriverVersion 1000*major + 10*minor, 0 when absent
   * @param unavailableReasons why each kind missing from {@code availableKinds} cannot run here
   */
  public record Info(String nativeVersion, String javaApiVersion, List<TableKind> availableKinds,
      List<DeviceInfo> devices, int cudaRuntimeVersion, int cudaDriverVersion,
      Map<TableKind, String> unavailableReasons) {
    public Info {
      availableKinds = List.copyOf(availableKinds);
      devices = List.copyOf(devices);
      unavailableReasons = Map.copyOf(unavailableReasons);
    }
  }

  /**
   * One CUDA device.
   *
   * @param computeCapability 10*major + minor (90 for an H100/H200)
   */
  public record DeviceInfo(int ordinal, String name, long totalBytes, long freeBytes,
      int computeCapability, int multiprocessors) {}

  /** Loads the native library now (otherwise the first call does); throws NativeLibraryException. */
  public static void load() {
    Native.ensureLoaded();
  }

  public static Info info() {
    Native.ensureLoaded();
    List<TableKind> kinds = new ArrayList<>();
    Map<TableKind, String> reasons = new EnumMap<>(TableKind.class);
    for (TableKind k : TableKind.values()) {
      String why = Native.kindUnavailableReason(k.code());
      if (why == null) {
        kinds.add(k);
      } else {
        reasons.put(k, why);
      }
    }
    int[] cuda = Native.cudaVersions();
    return new Info(nativeVersion(), javaApiVersion(), kinds, devices(), cuda[0], cuda[1], reasons);
  }

  /** The CUDA devices (empty without a device, driver or CUDA build). */
  public static List<DeviceInfo> devices() {
    int count = Native.deviceCount();
    List<DeviceInfo> devices = new ArrayList<>(count);
    for (int d = 0; d < count; d++) {
      long[] mem = Native.deviceMemory(d);
      int[] props = Native.deviceProperties(d);
      devices.add(new DeviceInfo(d, Native.deviceName(d), mem[1], mem[0], props[0], props[1]));
    }
    return devices;
  }

  /** True when this build has the kind and (for GPU kinds) a usable device exists. */
  public static boolean isAvailable(TableKind kind) {
    return unavailableReason(kind).isEmpty();
  }

  /**
   * Why {@code kind} cannot run here, empty when it can: e.g. "this build of wixlib has no CUDA
   * support", "no CUDA device was found", "the NVIDIA driver supports CUDA 12.2; this build needs
   * 13.0 or newer (update the driver)", "GPU 0 is sm_80 (NVIDIA A100-SXM4-80GB); this build runs on
   * sm_90 and newer".
   */
  public static Optional<String> unavailableReason(TableKind kind) {
    if (kind == null) {
      throw new NullPointerException("kind");
    }
    return Optional.ofNullable(Native.kindUnavailableReason(kind.code()));
  }

  /**
   * Measures what the path between this host and {@code device} carries (a fraction of a second):
   * the bound of each memory path a bulk call can take. Throws {@link NoDeviceException} without a
   * usable device.
   */
  public static LinkRates linkRates(int device) {
    double[] r = Native.linkMeasure(device, 0);
    return new LinkRates(r[0], r[1], r[2], r[3], (int) r[4], r[5], (int) r[6]);
  }

  /** Version string of the loaded libwixlib.so. */
  public static String nativeVersion() {
    return Native.versionString();
  }

  /** Version of this jar. */
  public static String javaApiVersion() {
    return NativeLoader.javaApiVersion();
  }

  /** Where the native library was loaded from (after a successful load), else null. */
  public static String libraryLocation() {
    return NativeLoader.loadedFrom();
  }
}
