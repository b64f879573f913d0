// Test harness of rowkey-hfile (compiled and run by tests/hbase.rs; not part of any build):
// reads HFiles written by the Rust writer with HBase 2.6.1's own code and compares them with
// the cells the test meant to write.
//
// Usage: java -cp <HBase classpath>:<dir> ReadHFiles <manifest> [<write manifest>]
// The manifest has one line per file: <hfile path> TAB <expected cells path> TAB <ok|corrupt>.
// Expected cells (big-endian): int row length, row, int family length, family, int qualifier
// length, qualifier, long timestamp, byte type, int value length, value; until end of file.
//
// For each file: HFilePrettyPrinter -v -k -a -m -b -h (no WARNING/ERROR, exit 0); a scanner over
// every cell (HFile.createReader + getScanner): each equal to the expected cell, in
// CellComparatorImpl order, tags empty; exact seeks to a sample of cells; the entry count,
// first/last key and mid-key; every row found by the general Bloom filter, rows of
// DeleteFamily cells by the delete-family Bloom filter; HBase's own block checksum failure
// count (HFile.getAndResetChecksumFailuresCount): 0 for "ok", above 0 for "corrupt".
// Prints "OK <path> ..." or "FAIL <path>: <why>" per file; exits 1 if any file failed.
//
// The write manifest (optional, done first) asks HBase's own writer for the same files, so the
// test can compare them byte for byte: one line per file: <expected cells path> TAB <output
// path> TAB <compression name> TAB <ROW|NONE> TAB <block size> TAB <index block max size> TAB
// <index min entries> TAB <create time ms> TAB <bulk load time ms> TAB <bulk load task> TAB
// <bytes per checksum>. The
// file is written as HFileOutputFormat2 writes one (StoreFileWriter over HFileWriterImpl, the
// same HFileContext and file info); prints "WROTE <output path>".
import java.io.*;
import java.nio.file.*;
import java.util.*;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparatorImpl;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.fs.HFileSystem;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.util.ChecksumType;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFilePrettyPrinter;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.util.BloomFilter;
import org.apache.hadoop.hbase.util.BloomFilterFactory;
import org.apache.hadoop.hbase.util.Bytes;

public class ReadHFiles {
  static final class Expected {
    byte[] row, family, qualifier, value;
    long ts;
    byte type;
  }

  static byte[] readBytes(DataInputStream in) throws IOException {
    byte[] b = new byte[in.readInt()];
    in.readFully(b);
    return b;
  }

  public static void main(String[] args) throws Exception {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.io.compress.snappy.codec", "org.apache.hadoop.hbase.io.compress.xerial.SnappyCodec");
    conf.set("hbase.io.compress.zstd.codec", "org.apache.hadoop.hbase.io.compress.zstd.ZstdCodec");
    conf.setBoolean("hbase.regionserver.checksum.verify", true);
    // the algorithms' codecs are built from a configuration of their own at class load:
    // reload them with the pure-Java codecs (Hadoop's SnappyCodec and ZStandardCodec need
    // native libraries), as a region server with these settings in hbase-site.xml would
    Compression.Algorithm.SNAPPY.reload(conf);
    Compression.Algorithm.ZSTD.reload(conf);
    int failures = 0;
    if (args.length > 1) {
      for (String line : Files.readAllLines(Paths.get(args[1]))) {
        if (line.isEmpty()) continue;
        String[] f = line.split("\t");
        try {
          writeWithHBase(conf, f);
          System.out.println("WROTE " + f[1]);
        } catch (Throwable t) {
          failures++;
          System.out.println("FAIL writing " + f[1] + ": " + t);
          t.printStackTrace(System.out);
        }
      }
    }
    for (String line : Files.readAllLines(Paths.get(args[0]))) {
      if (line.isEmpty()) continue;
      String[] parts = line.split("\t");
      String path = parts[0];
      boolean corrupt = parts[2].equals("corrupt");
      try {
        long t0 = System.nanoTime();
        String report = check(conf, path, parts[1], corrupt);
        System.out.println("OK " + path + " " + report + " (" + (System.nanoTime() - t0) / 1000000 + " ms)");
      } catch (Throwable t) {
        failures++;
        StringWriter sw = new StringWriter();
        t.printStackTrace(new PrintWriter(sw));
        String trace = sw.toString();
        System.out.println("FAIL " + path + ": " + t + "\n" + trace.substring(0, Math.min(trace.length(), 3000)));
      }
    }
    System.out.flush();
    System.exit(failures == 0 ? 0 : 1);
  }

  static String check(Configuration conf, String path, String expectedPath, boolean corrupt)
      throws Exception {
    HFile.getAndResetChecksumFailuresCount();
    StringBuilder report = new StringBuilder();
    if (!corrupt) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      HFilePrettyPrinter printer = new HFilePrettyPrinter(conf);
      printer.setPrintStreams(new PrintStream(out, true), new PrintStream(err, true));
      // -h walks the data blocks from the trailer's first to last data block offset: in an
      // empty file both are -1 (as HFileWriterImpl leaves them), which -h cannot walk
      boolean empty = new File(expectedPath).length() == 0;
      String[] args = empty
        ? new String[] { "-v", "-k", "-a", "-m", "-b", "-f", "file://" + path }
        : new String[] { "-v", "-k", "-a", "-m", "-b", "-h", "-f", "file://" + path };
      int rc = printer.run(args);
      String all = out.toString() + err.toString();
      if (rc != 0 || all.contains("WARNING") || all.contains("ERROR") || all.contains("Exception")) {
        throw new AssertionError("HFilePrettyPrinter exit " + rc + ":\n"
          + all.substring(0, Math.min(all.length(), 4000)));
      }
      if (!all.contains("Scanned kv count ->")) {
        throw new AssertionError("HFilePrettyPrinter did not scan:\n" + all);
      }
      long prettyFailures = HFile.getAndResetChecksumFailuresCount();
      if (prettyFailures != 0) {
        throw new AssertionError("HFilePrettyPrinter: " + prettyFailures + " checksum failures");
      }
      report.append("pretty-printer ok; ");
    }

    List<Expected> expected = new ArrayList<>();
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(expectedPath), 1 << 20))) {
      while (peek(in)) {
        Expected e = new Expected();
        e.row = readBytes(in);
        e.family = readBytes(in);
        e.qualifier = readBytes(in);
        e.ts = in.readLong();
        e.type = in.readByte();
        e.value = readBytes(in);
        expected.add(e);
      }
    }

    // an HFileSystem, as a region server has: only through it does HBase verify its own block
    // checksums (a plain LocalFileSystem makes the reader skip them)
    FileSystem fs = new HFileSystem(conf, true);
    Path p = new Path("file://" + path);
    HFile.Reader reader = HFile.createReader(fs, p, new CacheConfig(conf), true, conf);
    try {
      if (reader.getEntries() != expected.size()) {
        throw new AssertionError("entries " + reader.getEntries() + ", expected " + expected.size());
      }
      HFileScanner scanner = reader.getScanner(conf, false, false);
      int n = 0;
      Cell prev = null;
      long checksumFailures;
      if (scanner.seekTo()) {
        do {
          Cell c = scanner.getCell();
          if (n >= expected.size()) throw new AssertionError("more cells than expected");
          if (!corrupt) compare(c, expected.get(n), n);
          if (prev != null && CellComparatorImpl.COMPARATOR.compare(prev, c) >= 0) {
            throw new AssertionError("cell " + n + " not after the previous one in HBase's order");
          }
          prev = KeyValueUtil.copyToNewKeyValue(c);
          n++;
        } while (scanner.next());
      }
      if (n != expected.size()) {
        throw new AssertionError("scanned " + n + " cells, expected " + expected.size());
      }
      checksumFailures = HFile.getAndResetChecksumFailuresCount();
      if (corrupt) {
        if (checksumFailures == 0) {
          // the flipped byte may have changed a cell; then compare() above failed already
          throw new AssertionError("HBase found no checksum failure in a corrupted file");
        }
        return "HBase's checksum verification failed " + checksumFailures + " time(s), as it must";
      }
      if (checksumFailures != 0) {
        throw new AssertionError(checksumFailures + " HBase checksum failures");
      }
      report.append("scanned ").append(n).append(" cells equal; ");

      if (n > 0) {
        Cell first = reader.getFirstKey().get();
        Cell last = reader.getLastKey().get();
        if (!CellUtil.matchingRows(first, expected.get(0).row)
          || !CellUtil.matchingRows(last, expected.get(n - 1).row)) {
          throw new AssertionError("first/last key rows differ");
        }
        Optional<Cell> mid = reader.midKey();
        report.append("midkey ").append(mid.isPresent() ? "present" : "absent").append("; ");
        // exact seeks to a sample of cells (the block index, every level)
        int step = Math.max(1, n / 2000);
        HFileScanner seeker = reader.getScanner(conf, false, true);
        int seeks = 0;
        for (int i = 0; i < n; i += step) {
          Expected e = expected.get(i);
          KeyValue kv = new KeyValue(e.row, e.family, e.qualifier, e.ts, KeyValue.Type.codeToType(e.type), e.value);
          int r = seeker.seekTo(kv);
          if (r != 0) throw new AssertionError("seekTo cell " + i + " returned " + r);
          compare(seeker.getCell(), e, i);
          seeks++;
        }
        report.append(seeks).append(" exact seeks; ");
      }

      DataInput bloomMeta = reader.getGeneralBloomFilterMetadata();
      if (bloomMeta != null) {
        BloomFilter bloom = BloomFilterFactory.createFromMeta(bloomMeta, reader);
        // every row of a small file; a sample of 5,000 spread over a large one (each lookup
        // reads and verifies a 128 KiB chunk: there is no block cache here)
        int rowStep = Math.max(1, expected.size() / 5000);
        byte[] lastRow = null;
        int rows = 0;
        for (int i = 0; i < expected.size(); i += rowStep) {
          Expected e = expected.get(i);
          if (lastRow != null && Arrays.equals(lastRow, e.row)) continue;
          lastRow = e.row;
          rows++;
          if (!bloom.contains(e.row, 0, e.row.length, null)) {
            throw new AssertionError("the ROW Bloom filter misses row " + Bytes.toStringBinary(e.row));
          }
        }
        int falsePositives = 0;
        for (int i = 0; i < 1000; i++) {
          byte[] absent = Bytes.toBytes("absent-row-" + i + "-\u00ff");
          if (bloom.contains(absent, 0, absent.length, null)) falsePositives++;
        }
        if (falsePositives > 100) {
          throw new AssertionError("Bloom filter: " + falsePositives + "/1000 false positives");
        }
        report.append("bloom has all ").append(rows).append(rowStep == 1 ? " rows, " : " sampled rows, ")
          .append(falsePositives).append("/1000 false positives; ");
      }
      DataInput deleteMeta = reader.getDeleteBloomFilterMetadata();
      if (deleteMeta != null) {
        BloomFilter bloom = BloomFilterFactory.createFromMeta(deleteMeta, reader);
        int rows = 0;
        for (Expected e : expected) {
          if (e.type == KeyValue.Type.DeleteFamily.getCode() || e.type == KeyValue.Type.DeleteFamilyVersion.getCode()) {
            if (!bloom.contains(e.row, 0, e.row.length, null)) {
              throw new AssertionError("the DeleteFamily Bloom filter misses row " + Bytes.toStringBinary(e.row));
            }
            rows++;
          }
        }
        report.append("delete-family bloom has its ").append(rows).append(" cells' rows; ");
      }
      if (HFile.getAndResetChecksumFailuresCount() != 0) {
        throw new AssertionError("HBase checksum failures while seeking");
      }
      report.append("index levels ").append(reader.getTrailer().getNumDataIndexLevels())
        .append(", compression ").append(reader.getTrailer().getCompressionCodec().getName());
    } finally {
      reader.close();
    }
    return report.toString();
  }

  static List<Expected> readExpected(String expectedPath) throws IOException {
    List<Expected> expected = new ArrayList<>();
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(expectedPath), 1 << 20))) {
      while (peek(in)) {
        Expected e = new Expected();
        e.row = readBytes(in);
        e.family = readBytes(in);
        e.qualifier = readBytes(in);
        e.ts = in.readLong();
        e.type = in.readByte();
        e.value = readBytes(in);
        expected.add(e);
      }
    }
    return expected;
  }

  static void writeWithHBase(Configuration base, String[] f) throws IOException {
    Configuration conf = new Configuration(base);
    conf.setInt("hfile.index.block.max.size", Integer.parseInt(f[5]));
    conf.setInt("hfile.index.block.min.entries", Integer.parseInt(f[6]));
    List<Expected> cells = readExpected(f[0]);
    byte[] family = cells.isEmpty() ? Bytes.toBytes("cf") : cells.get(0).family;
    HFileContext context = new HFileContextBuilder()
      .withCompression(Compression.getCompressionAlgorithmByName(f[2]))
      .withDataBlockEncoding(DataBlockEncoding.NONE).withChecksumType(ChecksumType.CRC32C)
      .withBytesPerCheckSum(Integer.parseInt(f[10])).withBlockSize(Integer.parseInt(f[4]))
      .withColumnFamily(family).withTableName(Bytes.toBytes("t"))
      .withCreateTime(Long.parseLong(f[7])).withIncludesTags(true).build();
    LocalFileSystem fs = FileSystem.getLocal(conf);
    fs.setWriteChecksum(false);
    StoreFileWriter w = new StoreFileWriter.Builder(conf, CacheConfig.DISABLED, fs)
      .withFilePath(new Path("file://" + f[1])).withBloomType(BloomType.valueOf(f[3]))
      .withFileContext(context).build();
    for (Expected e : cells) {
      w.append(new KeyValue(e.row, e.family, e.qualifier, e.ts, KeyValue.Type.codeToType(e.type), e.value));
    }
    // HFileOutputFormat2's close
    w.appendFileInfo(HStoreFile.BULKLOAD_TIME_KEY, Bytes.toBytes(Long.parseLong(f[8])));
    w.appendFileInfo(HStoreFile.BULKLOAD_TASK_KEY, Bytes.toBytes(f[9]));
    w.appendFileInfo(HStoreFile.MAJOR_COMPACTION_KEY, Bytes.toBytes(true));
    w.appendFileInfo(HStoreFile.EXCLUDE_FROM_MINOR_COMPACTION_KEY, Bytes.toBytes(false));
    w.appendTrackedTimestampsToMetadata();
    w.close();
  }

  static boolean peek(DataInputStream in) throws IOException {
    in.mark(1);
    int b = in.read();
    in.reset();
    return b >= 0;
  }

  static void compare(Cell c, Expected e, int i) {
    if (!CellUtil.matchingRows(c, e.row) || !CellUtil.matchingFamily(c, e.family)
      || !CellUtil.matchingQualifier(c, e.qualifier) || c.getTimestamp() != e.ts
      || c.getTypeByte() != e.type || !CellUtil.matchingValue(c, e.value)
      || c.getTagsLength() != 0) {
      throw new AssertionError("cell " + i + " differs: HBase read " + c + " (value "
        + Bytes.toStringBinary(CellUtil.cloneValue(c)) + "), expected row "
        + Bytes.toStringBinary(e.row) + " ts " + e.ts + " type " + e.type);
    }
  }
}
