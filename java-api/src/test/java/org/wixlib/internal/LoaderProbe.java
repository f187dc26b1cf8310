package org.wixlib.internal;

import org.wixlib.HashTable;
import org.wixlib.Wixlib;

/** Run in a fresh JVM by NativeLoaderTest: loads the library the normal way and uses it. */
public final class LoaderProbe {
  private LoaderProbe() {}

  public static void main(String[] args) {
    try (HashTable t = HashTable.builder().build()) {
      t.insert(new int[] {7}, new int[] {8});
      String from = Wixlib.libraryLocation();
      Wixlib.load();  // a second load: nothing happens
      System.out.println("version=" + Wixlib.nativeVersion() + " found=" + t.find(new int[] {7}, 0)[0]
          + " from=" + from + " again=" + Wixlib.libraryLocation());
    } catch (RuntimeException e) {
      System.out.println("error=" + e.getClass().getName() + ": " + e.getMessage());
      System.exit(2);
    }
  }
}
