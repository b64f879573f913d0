// Benchmark harness of rowkey-hfile (not part of any build; examples/hfile_vs_hbase.rs compiles
// and drives it): writes the cells the Rust benchmark writes with HBase 2.6.1's own writer
// (StoreFileWriter over HFileWriterImpl, as HFileOutputFormat2 drives it: ROW Bloom filter,
// 64 KiB blocks, CRC32C in 16 KiB chunks, the file info HFileOutputFormat2's close appends, the
// same create and bulk-load times), so that an uncompressed file is byte-identical to the Rust
// writer's.
//
// One JVM serves every run: it reads one compression name per line on stdin (none, snappy, gz,
// zstd), writes the file once and answers with one line
//
//   RUN <compression> <nanoseconds> <bytes on disk>
//
// timed from creating the writer to closing it (the cells are made in the timed loop, as the
// Rust side makes them: a 24-byte row of a 4-byte prefix and a zero-padded counter, family cf,
// qualifier q, a 100-byte value). The driver decides which runs are warm-up.
//
// Usage: java -cp <HBase classpath>:<dir> JavaBench <cells> <path> <create ms> <bulkload ms> <task>
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.ChecksumType;

public class JavaBench {
  public static void main(String[] args) throws Exception {
    long cells = Long.parseLong(args[0]);
    String path = args[1];
    long createTime = Long.parseLong(args[2]);
    long bulkloadTime = Long.parseLong(args[3]);
    String task = args[4];
    Configuration conf = HBaseConfiguration.create();
    // the pure-Java codecs (Hadoop's SnappyCodec and ZStandardCodec need native libraries)
    conf.set("hbase.io.compress.snappy.codec", "org.apache.hadoop.hbase.io.compress.xerial.SnappyCodec");
    conf.set("hbase.io.compress.zstd.codec", "org.apache.hadoop.hbase.io.compress.zstd.ZstdCodec");
    Compression.Algorithm.SNAPPY.reload(conf);
    Compression.Algorithm.ZSTD.reload(conf);
    LocalFileSystem fs = FileSystem.getLocal(conf);
    fs.setWriteChecksum(false);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    System.out.println("READY");
    System.out.flush();
    for (String line; (line = in.readLine()) != null;) {
      String compression = line.trim();
      if (compression.isEmpty()) continue;
      long nanos = write(conf, fs, cells, compression, path, createTime, bulkloadTime, task);
      System.out.println("RUN " + compression + " " + nanos + " " + new File(path).length());
      System.out.flush();
    }
  }

  static long write(Configuration conf, LocalFileSystem fs, long cells, String compression,
      String path, long createTime, long bulkloadTime, String task) throws Exception {
    byte[] value = new byte[100];
    for (int i = 0; i < 100; i++) value[i] = (byte) ('a' + i % 26);
    byte[] family = Bytes.toBytes("cf"), qualifier = Bytes.toBytes("q");
    byte[] row = new byte[24];
    row[0] = '3'; row[1] = 'a'; row[2] = '7'; row[3] = 'f';
    long start = System.nanoTime();
    HFileContext context = new HFileContextBuilder()
      .withCompression(Compression.getCompressionAlgorithmByName(compression))
      .withDataBlockEncoding(DataBlockEncoding.NONE).withChecksumType(ChecksumType.CRC32C)
      .withBytesPerCheckSum(16 * 1024).withBlockSize(64 * 1024).withColumnFamily(family)
      .withTableName(Bytes.toBytes("t")).withCreateTime(createTime)
      .withIncludesTags(true).build();
    StoreFileWriter w = new StoreFileWriter.Builder(conf, CacheConfig.DISABLED, fs)
      .withFilePath(new Path("file://" + path)).withBloomType(BloomType.ROW)
      .withFileContext(context).build();
    for (long i = 0; i < cells; i++) {
      long n = i;
      for (int d = 23; d >= 4; d--) {
        row[d] = (byte) ('0' + n % 10);
        n /= 10;
      }
      // KeyValue copies the row: the buffer is reused
      w.append(new KeyValue(row, family, qualifier, 1_700_000_000_000L, KeyValue.Type.Put, value));
    }
    // HFileOutputFormat2's close
    w.appendFileInfo(HStoreFile.BULKLOAD_TIME_KEY, Bytes.toBytes(bulkloadTime));
    w.appendFileInfo(HStoreFile.BULKLOAD_TASK_KEY, Bytes.toBytes(task));
    w.appendFileInfo(HStoreFile.MAJOR_COMPACTION_KEY, Bytes.toBytes(true));
    w.appendFileInfo(HStoreFile.EXCLUDE_FROM_MINOR_COMPACTION_KEY, Bytes.toBytes(false));
    w.appendTrackedTimestampsToMetadata();
    w.close();
    return System.nanoTime() - start;
  }
}
