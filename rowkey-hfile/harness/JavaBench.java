// Benchmark harness of rowkey-hfile (not part of any build; see examples/hfile_bench.rs): writes
// the cells hfile_bench writes with HBase 2.6.1's own writer (StoreFileWriter over
// HFileWriterImpl, as HFileOutputFormat2 drives it: ROW Bloom filter, 64 KiB blocks) and prints
// the same figures. Runs the write three times in one JVM and reports each (the first includes
// the JIT's warm-up).
//
// Usage: java -cp <HBase classpath>:<dir> JavaBench <cells> <none|snappy|gz|zstd> <path>
import java.io.File;
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
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.io.compress.snappy.codec", "org.apache.hadoop.hbase.io.compress.xerial.SnappyCodec");
    conf.set("hbase.io.compress.zstd.codec", "org.apache.hadoop.hbase.io.compress.zstd.ZstdCodec");
    Compression.Algorithm.SNAPPY.reload(conf);
    Compression.Algorithm.ZSTD.reload(conf);
    byte[] value = new byte[100];
    for (int i = 0; i < 100; i++) value[i] = (byte) ('a' + i % 26);
    byte[] family = Bytes.toBytes("cf"), qualifier = Bytes.toBytes("q");
    for (int run = 1; run <= 3; run++) {
      long start = System.nanoTime();
      HFileContext context = new HFileContextBuilder()
        .withCompression(Compression.getCompressionAlgorithmByName(args[1]))
        .withDataBlockEncoding(DataBlockEncoding.NONE).withChecksumType(ChecksumType.CRC32C)
        .withBytesPerCheckSum(16 * 1024).withBlockSize(64 * 1024).withColumnFamily(family)
        .withTableName(Bytes.toBytes("t")).withCreateTime(System.currentTimeMillis())
        .withIncludesTags(true).build();
      LocalFileSystem fs = FileSystem.getLocal(conf);
      fs.setWriteChecksum(false);
      StoreFileWriter w = new StoreFileWriter.Builder(conf, CacheConfig.DISABLED, fs)
        .withFilePath(new Path("file://" + args[2])).withBloomType(BloomType.ROW)
        .withFileContext(context).build();
      for (long i = 0; i < cells; i++) {
        byte[] row = Bytes.toBytes(String.format("3a7f%020d", i));
        w.append(new KeyValue(row, family, qualifier, 1_700_000_000_000L, KeyValue.Type.Put, value));
      }
      w.appendFileInfo(HStoreFile.BULKLOAD_TIME_KEY, Bytes.toBytes(System.currentTimeMillis()));
      w.appendFileInfo(HStoreFile.MAJOR_COMPACTION_KEY, Bytes.toBytes(true));
      w.appendTrackedTimestampsToMetadata();
      w.close();
      double secs = (System.nanoTime() - start) / 1e9;
      long bytes = new File(args[2]).length();
      System.out.printf("HBase's writer, run %d: %d cells, %s: %.1f MB on disk in %.3f s: %.0f cells/s%n",
        run, cells, args[1], bytes / 1e6, secs, cells / secs);
    }
  }
}
