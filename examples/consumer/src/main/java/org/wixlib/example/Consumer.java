package org.wixlib.example;

import org.wixlib.HashTable;
import org.wixlib.TableKind;
import org.wixlib.Wixlib;

/**
 * Uses a CPU table through the public API and checks every answer; exits 1 on a wrong one. The
 * argument says how it was started ("class-path" or "module-path"), which it checks too.
 */
public final class Consumer {
  private Consumer() {}

  public static void main(String[] args) {
    String mode = args.length > 0 ? args[0] : "class-path";
    Module api = HashTable.class.getModule();
    boolean onModulePath = api.isNamed();
    check(onModulePath == mode.equals("module-path"), "org.wixlib is " + (onModulePath ? "" : "not ")
        + "a named module under " + mode);
    if (onModulePath) {
      check(api.getName().equals("org.wixlib"), "module name " + api.getName());
      check(api.getDescriptor().exports().size() == 1 && api.isExported("org.wixlib")
          && !api.isExported("org.wixlib.internal"), "org.wixlib exports only org.wixlib: " + api.getDescriptor());
    }
    check(Wixlib.isAvailable(TableKind.CPU), "the CPU kind is available");

    int n = 100_000;
    int[] keys = new int[n];
    int[] values = new int[n];
    for (int i = 0; i < n; i++) {
      keys[i] = i * 7 + 1;
      values[i] = i;
    }
    try (HashTable table = HashTable.builder().kind(TableKind.CPU).capacity(n).build()) {
      table.insert(keys, values);
      check(table.size() == n, "size " + table.size());
      int[] found = table.find(new int[] {1, 8, 7 * (n - 1) + 1, 2}, -1);
      check(found[0] == 0 && found[1] == 1 && found[2] == n - 1 && found[3] == -1,
          "find " + java.util.Arrays.toString(found));
      table.erase(new int[] {1});
      check(!table.contains(new int[] {1})[0] && table.size() == n - 1, "erase");
    }
    System.out.println("consumer (" + mode + "): ok, wixlib " + Wixlib.javaApiVersion() + ", library "
        + Wixlib.nativeVersion() + ", GLHT: " + Wixlib.unavailableReason(TableKind.GLHT).orElse("available"));
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      System.out.println("consumer: FAILED: " + what);
      System.exit(1);
    }
  }
}
