package org.wixlib.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import org.junit.jupiter.api.Test;
import org.wixlib.HashTable;
import org.wixlib.Wixlib;

/**
 * wixlib in several class loaders of one JVM (application servers, task isolation, reloads): each
 * loader gets its own copy of the API classes, and all of them use the one libwixlib.so.
 */
class ClassLoadersTest {

  /** A fresh class loader holding the API classes (and the packed library) the tests run against. */
  private static URLClassLoader isolated(String name) {
    URL api = HashTable.class.getProtectionDomain().getCodeSource().getLocation();
    return new ChildFirst(name, new URL[] {api}, ClassLoader.getPlatformClassLoader());
  }

  /**
   * Defines org.wixlib classes itself, as web-application and task class loaders do. Needed because
   * the tests run on the module path: the built-in loaders (the platform loader too) hand a package of
   * a boot-layer module to that module's loader, so plain parent-first delegation would return the
   * test's own classes.
   */
  private static final class ChildFirst extends URLClassLoader {
    ChildFirst(String name, URL[] urls, ClassLoader parent) {
      super(name, urls, parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!name.startsWith("org.wixlib.")) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          c = findClass(name);
        }
        if (resolve) {
          resolveClass(c);
        }
        return c;
      }
    }
  }

  /** Builds a CPU table in {@code loader}, inserts and finds keys through it; returns loadedFrom. */
  private static String useTable(ClassLoader loader) throws Exception {
    Class<?> tableClass = Class.forName(HashTable.class.getName(), true, loader);
    assertNotSame(HashTable.class, tableClass, "the class comes from the isolated loader");
    assertTrue(tableClass.getClassLoader() == loader, String.valueOf(tableClass.getClassLoader()));
    Class<?> kindClass = Class.forName("org.wixlib.TableKind", true, loader);
    Object cpu = kindClass.getField("CPU").get(null);
    Object builder = tableClass.getMethod("builder").invoke(null);
    builder = builder.getClass().getMethod("kind", kindClass).invoke(builder, cpu);
    builder = builder.getClass().getMethod("capacity", long.class).invoke(builder, 1024L);
    Object table = call(builder, builder.getClass().getMethod("build"));
    Method close = tableClass.getMethod("close");
    try {
      int[] keys = {3, 11, 29, 1_000_003};
      int[] values = {30, 110, 290, 7};
      tableClass.getMethod("insert", int[].class, int[].class).invoke(table, keys, values);
      Method find = tableClass.getMethod("find", int[].class, int.class);
      assertArrayEquals(values, (int[]) find.invoke(table, keys, -1));
      assertArrayEquals(new int[] {-1, -1}, (int[]) find.invoke(table, new int[] {4, 12}, -1));
      assertEquals(4L, ((Number) tableClass.getMethod("size").invoke(table)).longValue());
    } finally {
      close.invoke(table);
    }
    assertTrue((Boolean) tableClass.getMethod("isClosed").invoke(table));
    Class<?> wixlib = Class.forName(Wixlib.class.getName(), true, loader);
    assertEquals(NativeLoader.jarBuildId(), wixlib.getMethod("nativeVersion").invoke(null));
    return (String) wixlib.getMethod("libraryLocation").invoke(null);
  }

  /** Invokes {@code m}, rethrowing what it threw (a NativeLibraryException names the real cause). */
  private static Object call(Object target, Method m) throws Exception {
    try {
      return m.invoke(target);
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof Exception ex ? ex : e;
    }
  }

  @Test
  void twoClassLoadersEachUseTheLibrary() throws Exception {
    try (URLClassLoader first = isolated("wixlib-first"); URLClassLoader second = isolated("wixlib-second")) {
      String fromFirst = useTable(first);
      String fromSecond = useTable(second);
      assertNotNull(fromFirst);
      assertEquals(fromFirst, fromSecond, "both loaders report the same library file");
    }
  }

  @Test
  void theTestsOwnLoaderAndAnIsolatedOneShareTheLibraryFile() throws Exception {
    Wixlib.load();
    try (URLClassLoader other = isolated("wixlib-other")) {
      assertEquals(Wixlib.libraryLocation(), useTable(other));
    }
    try (HashTable t = HashTable.builder().capacity(64).build()) {  // this loader still works
      t.insert(new int[] {5}, new int[] {6});
      assertArrayEquals(new int[] {6}, t.find(new int[] {5}, 0));
    }
  }
}
