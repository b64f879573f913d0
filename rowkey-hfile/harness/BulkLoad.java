// Test harness of rowkey-hfile (compiled and run by tests/bulkload.rs; not part of any build):
// starts a standalone HBase 2.6.1 in this JVM (HMasterCommandLine "start": ZooKeeper, master and
// region server, as `hbase master start` does), creates a table, loads HFiles written by the
// Rust writer with HBase's own BulkLoadHFilesTool (`hbase completebulkload`), and compares a raw
// scan of every version and delete marker with the cells the test wrote.
//
// Usage: java -cp <HBase classpath>:<dir> BulkLoad <work dir> <ZooKeeper port> <expected cells>
//        <table>=<load dir>[=<split>,<split>...] ...
// Expected cells: as ReadHFiles.java reads them, every family's, in HBase's order.
// Each table is created with the families found in its load dir (<load dir>/<family>/<file>),
// all versions kept, pre-split at the given rows (hex), loaded, scanned, compared.
// Prints "OK <table> ..." or "FAIL <table>: ..."; exits 0 only if every table matched.
import java.io.*;
import java.nio.file.*;
import java.util.*;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.*;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.master.HMaster;
import org.apache.hadoop.hbase.master.HMasterCommandLine;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.tool.BulkLoadHFilesTool;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.util.ToolRunner;

public class BulkLoad {
  public static void main(String[] args) throws Exception {
    String root = args[0];
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.cluster.distributed", "false");
    conf.set("hbase.rootdir", "file://" + root + "/hbase");
    conf.set("hbase.zookeeper.property.dataDir", root + "/zk");
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.set("hbase.zookeeper.property.clientPort", args[1]);
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    conf.setInt("hbase.master.info.port", -1);
    conf.setInt("hbase.regionserver.info.port", -1);
    conf.setInt("hbase.master.port", 0);
    conf.setInt("hbase.regionserver.port", 0);
    conf.set("hbase.master.hostname", "localhost");
    conf.set("hbase.unsafe.regionserver.hostname", "localhost");
    conf.set("hbase.io.compress.snappy.codec", "org.apache.hadoop.hbase.io.compress.xerial.SnappyCodec");
    conf.set("hbase.io.compress.zstd.codec", "org.apache.hadoop.hbase.io.compress.zstd.ZstdCodec");
    Compression.Algorithm.SNAPPY.reload(conf);
    Compression.Algorithm.ZSTD.reload(conf);
    Configuration serverConf = new Configuration(conf);
    Thread server = new Thread(() -> {
      try {
        ToolRunner.run(serverConf, new HMasterCommandLine(HMaster.class), new String[] { "start" });
      } catch (Exception e) {
        e.printStackTrace();
      }
    }, "standalone-hbase");
    server.setDaemon(true);
    long start = System.nanoTime();
    server.start();

    List<byte[][]> expected = readExpected(args[2]);
    int failures = 0;
    long deadline = System.currentTimeMillis() + 120_000;
    try (Connection connection = ConnectionFactory.createConnection(conf)) {
      Admin admin = connection.getAdmin();
      while (true) {
        try {
          admin.listTableNames();
          if (admin.getClusterMetrics().getLiveServerMetrics().size() > 0) break;
        } catch (IOException e) {
          if (System.currentTimeMillis() > deadline) throw e;
        }
        Thread.sleep(500);
      }
      System.out.println("HBase is up after " + (System.nanoTime() - start) / 1_000_000 + " ms");
      for (int a = 3; a < args.length; a++) {
        String[] spec = args[a].split("=");
        String table = spec[0];
        try {
          long t0 = System.nanoTime();
          String report = loadAndCompare(conf, connection, admin, table, spec[1],
            spec.length > 2 ? spec[2] : "", expected);
          System.out.println("OK " + table + " " + report + " (" + (System.nanoTime() - t0) / 1_000_000 + " ms)");
        } catch (Throwable t) {
          failures++;
          System.out.println("FAIL " + table + ": " + t);
          t.printStackTrace(System.out);
        }
      }
    }
    System.out.println("done: the JVM ran " + java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() + " ms");
    System.out.flush();
    // halt, not exit: the standalone server's shutdown hooks would stop it gracefully, which
    // takes long and serves nothing here (its directory is thrown away)
    Runtime.getRuntime().halt(failures == 0 ? 0 : 1);
  }

  static String loadAndCompare(Configuration conf, Connection connection, Admin admin,
      String table, String loadDir, String splits, List<byte[][]> expected) throws Exception {
    TableName name = TableName.valueOf(table);
    TableDescriptorBuilder td = TableDescriptorBuilder.newBuilder(name);
    File[] families = new File(loadDir).listFiles(File::isDirectory);
    Arrays.sort(families);
    for (File family : families) {
      td.setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes(family.getName()))
        .setMaxVersions(Integer.MAX_VALUE).setBloomFilterType(BloomType.ROW).build());
    }
    List<byte[]> splitRows = new ArrayList<>();
    for (String s : splits.split(",")) {
      if (!s.isEmpty()) splitRows.add(Bytes.fromHex(s));
    }
    if (splitRows.isEmpty()) {
      admin.createTable(td.build());
    } else {
      admin.createTable(td.build(), splitRows.toArray(new byte[0][]));
    }
    long t0 = System.nanoTime();
    Map<?, ?> loaded = new BulkLoadHFilesTool(conf).bulkLoad(name, new Path("file://" + loadDir));
    long loadMs = (System.nanoTime() - t0) / 1_000_000;
    if (loaded.isEmpty()) throw new AssertionError("the tool loaded nothing");
    int regions = admin.getRegions(name).size();

    Scan scan = new Scan().setRaw(true).readAllVersions();
    int n = 0;
    try (Table t = connection.getTable(name); ResultScanner scanner = t.getScanner(scan)) {
      for (Result r : scanner) {
        for (Cell c : r.rawCells()) {
          if (n >= expected.size()) throw new AssertionError("more cells than written");
          byte[][] e = expected.get(n);
          if (!CellUtil.matchingRows(c, e[0]) || !CellUtil.matchingFamily(c, e[1])
            || !CellUtil.matchingQualifier(c, e[2]) || c.getTimestamp() != Bytes.toLong(e[3])
            || c.getTypeByte() != e[4][0] || !CellUtil.matchingValue(c, e[5])) {
            throw new AssertionError("cell " + n + " differs: HBase returned " + c
              + ", written row " + Bytes.toStringBinary(e[0]).substring(0, Math.min(80, Bytes.toStringBinary(e[0]).length()))
              + " family " + Bytes.toString(e[1]) + " qualifier " + Bytes.toStringBinary(e[2])
              + " ts " + Bytes.toLong(e[3]) + " type " + e[4][0]);
          }
          n++;
        }
      }
    }
    if (n != expected.size()) {
      throw new AssertionError("scanned " + n + " cells, wrote " + expected.size());
    }
    return "loaded " + loaded.size() + " file(s) into " + regions + " region(s) in " + loadMs
      + " ms; raw scan returned all " + n + " cells, equal and in order";
  }

  static List<byte[][]> readExpected(String path) throws IOException {
    List<byte[][]> out = new ArrayList<>();
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(path), 1 << 20))) {
      while (true) {
        in.mark(1);
        if (in.read() < 0) break;
        in.reset();
        byte[] row = read(in), family = read(in), qualifier = read(in);
        byte[] ts = Bytes.toBytes(in.readLong());
        byte[] type = new byte[] { in.readByte() };
        out.add(new byte[][] { row, family, qualifier, ts, type, read(in) });
      }
    }
    return out;
  }

  static byte[] read(DataInputStream in) throws IOException {
    byte[] b = new byte[in.readInt()];
    in.readFully(b);
    return b;
  }
}
