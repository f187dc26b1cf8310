package org.wixlib.cli.shell;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.wixlib.GrowPolicy;
import org.wixlib.HashTable;
import org.wixlib.Snapshot;
import org.wixlib.SnapshotHeader;
import org.wixlib.TableKind;
import org.wixlib.TableStats;
import org.wixlib.Wixlib;
import org.wixlib.cli.CountConverter;
import org.wixlib.cli.KindConverter;
import org.wixlib.cli.KindOption;
import org.wixlib.cli.KindUnavailableException;
import org.wixlib.cli.ShardOptions;
import org.wixlib.cli.TableOptions;
import org.wixlib.cli.Texts;
import org.wixlib.cli.report.Format;
import org.wixlib.cli.report.Report;
import org.wixlib.cli.report.ReportWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Shell commands on whole tables: create, drop, tables, resize, stats, save, load. */
final class TableCommands {
  private TableCommands() {}

  /** As {@link #requireKind(TableKind, int)}, and --shards / --devices fit the kind and this machine. */
  static void requireKind(picocli.CommandLine.Model.CommandSpec spec, TableKind kind, int device, ShardOptions sharding) {
    sharding.check(spec, List.of(kind));
    requireKind(kind, sharding.firstDevice(device));
  }

  static void requireKind(TableKind kind, int device) {
    java.util.Optional<String> why = Wixlib.unavailableReason(kind);
    if (why.isPresent()) {
      throw new KindUnavailableException("kind " + Texts.kindName(kind) + " is not available here: " + why.get());
    }
    if (kind.isGpu() && device >= Wixlib.devices().size()) {
      throw new KindUnavailableException("device " + device + " does not exist (" + Wixlib.devices().size()
          + " devices)");
    }
  }

  @Command(name = "create", description = "Creates an empty table.",
      footer = {"Examples:", "  create t --kind hive --capacity 2^20", "  create c --kind cpu --capacity 1M --max-load 0.8",
          "  create w --kind glht --key-bits 64",
          "  create s --kind cpu --shards 4", "  create g --kind glht --devices 0,1 --capacity 2^28"})
  static final class Create extends SessionCommand {
    @Parameters(index = "0", paramLabel = "TABLE", description = "Name of the new table.")
    String name;

    @Option(names = {"-k", "--kind"}, paramLabel = "KIND", converter = KindConverter.class,
        description = {KindOption.DESCRIPTION, KindOption.DEFAULT})
    TableKind kind;

    @Option(names = {"-c", "--capacity"}, paramLabel = "N", converter = CountConverter.class,
        description = "Keys the table holds at its max load factor before it grows (default: the kind's).")
    Long capacity;

    @Option(names = "--max-load", paramLabel = "F", description = "Max load factor (default: the kind's).")
    Double maxLoad;

    @Option(names = "--min-load", paramLabel = "F", description = "Shrink below this load factor (Hive); 0 = never.")
    Double minLoad;

    @Option(names = "--grow", paramLabel = "POLICY", description = "auto (grow when full, default) or never (report FULL).")
    GrowPolicy grow;

    @Option(names = {"-d", "--device"}, paramLabel = "N", defaultValue = "0", description = "CUDA device (GPU kinds).")
    int device;

    @Option(names = "--threads", paramLabel = "N", description = "CPU kind: worker threads, 0 = all cores.")
    Integer threads;

    @Option(names = "--key-bits", paramLabel = "BITS", defaultValue = "32",
        description = "Width of keys and values: 32 or 64 (default: ${DEFAULT-VALUE}).")
    int keyBits;

    @Mixin ShardOptions sharding = new ShardOptions();

    @Override
    void execute() {
      session.checkNewName(name);
      TableOptions.check(spec, "--key-bits", b -> b.keyBits(keyBits));
      TableKind k = kind != null ? kind : TableOptions.defaultKind();
      if (maxLoad != null) {
        TableOptions.check(spec, "--max-load", b -> b.maxLoadFactor(maxLoad));
      }
      if (minLoad != null) {
        TableOptions.check(spec, "--min-load", b -> b.minLoadFactor(minLoad));
      }
      if (threads != null) {
        TableOptions.check(spec, "--threads", b -> b.threads(threads));
      }
      TableOptions.check(spec, "--device", b -> b.device(device));
      requireKind(spec, k, device, sharding);
      HashTable.Builder b = sharding.place(HashTable.builder().kind(k).keyBits(keyBits), k, device);
      if (capacity != null) {
        b.capacity(capacity);
      }
      if (maxLoad != null) {
        b.maxLoadFactor(maxLoad);
      }
      if (minLoad != null) {
        b.minLoadFactor(minLoad);
      }
      if (grow != null) {
        b.growPolicy(grow);
      }
      if (threads != null) {
        b.threads(threads);
      }
      HashTable t = b.build();
      session.add(name, t);
      session.info(name + ": " + Texts.kindName(k) + (keyBits == 64 ? " table of 64-bit keys" : " table") + ", room for " + keys(t, t.capacity()) + " keys ("
          + t.capacity() + " slots at max load " + t.maxLoadFactor() + ")"
          + (t.shards() > 1 ? ", " + sharding.layout(k, device) : ""));
    }
  }

  @Command(name = "drop", description = "Frees a table.")
  static final class Drop extends SessionCommand {
    @Parameters(paramLabel = "TABLE", arity = "1..*", description = "Tables to free.")
    List<String> names;

    @Override
    void execute() {
      for (String n : names) {
        session.table(n); // every name is checked before any table is dropped
      }
      for (String n : names) {
        session.drop(n);
      }
    }
  }

  @Command(name = "tables", description = "Lists the tables of this session (to stdout).")
  static final class Tables extends SessionCommand {
    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table", description = "table, csv or json.")
    Format format;

    @Override
    void execute() {
      Report r = new Report("tables", "name", "kind", "key_bits", "size", "capacity", "slots", "load_factor", "bytes");
      for (String n : session.names()) {
        HashTable t = session.table(n);
        TableStats s = t.stats();
        r.row(n, Texts.kindName(t.kind()), t.keyBits(), s.size(), keys(t, s.capacity()), s.capacity(),
            round(s.capacity() == 0 ? 0 : (double) s.size() / s.capacity()), s.bytes());
      }
      ReportWriter.write(r, format, session.out, session.meta());
    }
  }

  static double round(double d) {
    return Math.round(d * 10000) / 10000.0;
  }

  /**
   * Keys a table of this many slots holds at its max load factor: the unit of create --capacity and
   * resize (the library's own capacity counts slots).
   */
  static long keys(HashTable t, long slots) {
    return (long) Math.floor(t.maxLoadFactor() * slots);
  }

  @Command(name = "resize", description = "Rehashes a table to hold CAPACITY keys at its max load factor; "
      + "fails below the table's size.", footer = {"Example:", "  resize t 2^22"})
  static final class Resize extends SessionCommand {
    @Parameters(index = "0", paramLabel = "TABLE")
    String name;

    @Parameters(index = "1", paramLabel = "CAPACITY", converter = CountConverter.class,
        description = "Keys at the max load factor (1000000, 2^22, 4M, 4Mi).")
    long capacity;

    @Override
    void execute() {
      HashTable t = table(name);
      long size = t.size();
      if (capacity < size) {
        throw new ShellError(name + " holds " + size + " keys; cannot resize it to " + capacity);
      }
      long before = t.capacity();
      t.resize(capacity);
      session.info(name + ": room for " + keys(t, before) + " -> " + keys(t, t.capacity()) + " keys (" + before
          + " -> " + t.capacity() + " slots)");
    }
  }

  @Command(name = "stats", description = "Size, capacity (keys at the max load factor, the unit of create "
      + "--capacity), slots, load factor, memory, resizes, stash use and displacements of a table (to stdout).")
  static final class Stats extends SessionCommand {
    @Parameters(index = "0", paramLabel = "TABLE")
    String name;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table", description = "table, csv or json.")
    Format format;

    @Override
    void execute() {
      HashTable t = table(name);
      TableStats s = t.stats();
      Report r = new Report("stats");
      r.field("table", name);
      r.field("kind", Texts.kindName(t.kind()));
      r.field("key_bits", t.keyBits());
      r.field("size", s.size());
      r.field("capacity", keys(t, s.capacity()));
      r.field("slots", s.capacity());
      r.field("load_factor", round(s.capacity() == 0 ? 0 : (double) s.size() / s.capacity()));
      r.field("max_load_factor", t.maxLoadFactor());
      r.field(t.kind().isGpu() ? "bytes_on_device" : "bytes", s.bytes());
      r.field("resizes", s.resizes());
      if (t.kind() == TableKind.HIVE) {
        r.field("stash_used", s.stashUsed());
      }
      r.field("displacements", s.displacements());
      r.field("failed_inserts", s.failedInserts());
      if (t.kind().isGpu()) {
        r.field("last_kernel_ms", s.lastKernelMillis());
      }
      if (t.shards() > 1) {
        r.field("shards", t.shards());
        java.util.List<String> each = new java.util.ArrayList<>();
        for (int i = 0; i < t.shards(); i++) {
          org.wixlib.ShardStats ss = t.shardStats(i);
          each.add(i + ": " + ss.stats().size() + " keys in " + ss.stats().capacity() + " slots"
              + (ss.device() >= 0 ? " on device " + ss.device() : ""));
        }
        r.field("shard_sizes", each);
      }
      ReportWriter.write(r, format, session.out, session.meta());
    }
  }

  @Command(name = "save", description = "Writes a table to a snapshot file (versioned, checksummed, "
      + "written to a temporary file and renamed).", footer = {"Example:", "  save t t.wxs"})
  static final class Save extends SessionCommand {
    @Parameters(index = "0", paramLabel = "TABLE")
    String name;

    @Parameters(index = "1", paramLabel = "FILE")
    Path file;

    @Override
    void execute() throws IOException {
      HashTable t = table(name);
      session.checkCancelled("save");
      t.save(file);
      session.info(name + ": " + t.size() + " pairs saved to " + file + " (" + Files.size(file) + " bytes)");
    }
  }

  @Command(name = "load", description = "Creates a table from a snapshot file; a truncated, corrupt or "
      + "foreign file is rejected and no table is touched.",
      footer = {"Examples:", "  load t.wxs            (table named t)", "  load t.wxs as u --kind cpu"})
  static final class Load extends SessionCommand {
    @Parameters(paramLabel = "FILE [as TABLE]", arity = "1..3",
        description = "The snapshot, then optionally 'as' and the new table's name (default: the file name "
            + "without extension).")
    List<String> words;

    @Option(names = {"-k", "--kind"}, paramLabel = "KIND", converter = KindConverter.class,
        description = "Kind of the new table (default: the kind that was saved).")
    TableKind kind;

    @Option(names = "--max-load", paramLabel = "F", description = "Max load factor of the new table.")
    Double maxLoad;

    @Option(names = {"-d", "--device"}, paramLabel = "N", defaultValue = "0", description = "CUDA device (GPU kinds).")
    int device;

    @Mixin ShardOptions sharding = new ShardOptions();

    @Override
    void execute() throws IOException {
      Path file = Path.of(words.get(0));
      String name;
      if (words.size() == 1) {
        name = file.getFileName().toString().replaceFirst("\\.[^.]*$", "");
      } else if (words.size() == 3 && words.get(1).equalsIgnoreCase("as")) {
        name = words.get(2);
      } else {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(),
            "expected: load FILE [as TABLE], got: load " + String.join(" ", words));
      }
      session.checkNewName(name);
      if (!Files.exists(file)) {
        throw new ShellError(file + ": no such file");
      }
      if (maxLoad != null) {
        TableOptions.check(spec, "--max-load", b -> b.maxLoadFactor(maxLoad));
      }
      SnapshotHeader h = Snapshot.readHeader(file);
      TableKind k = kind != null ? kind : h.kind();
      requireKind(spec, k, device, sharding);
      HashTable.Builder b = sharding.place(HashTable.builder().kind(k), k, device);
      if (maxLoad != null) {
        b.maxLoadFactor(maxLoad);
      }
      HashTable t = HashTable.load(file, b);
      session.add(name, t);
      session.info(name + ": " + t.size() + " pairs loaded from " + file + " into a " + Texts.kindName(k)
          + " table" + (t.shards() > 1 ? " of " + t.shards() + " shards" : "")
          + (k != h.kind() ? " (saved from " + Texts.kindName(h.kind()) + ")" : ""));
    }
  }
}
