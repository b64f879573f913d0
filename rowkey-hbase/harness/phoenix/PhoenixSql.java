/*
 * rowkey-hbase's Phoenix harness (rowkey_hbase::server::HBase::phoenix_sql): runs the SQL
 * statements it reads from standard input through Phoenix's thick JDBC driver, and prints what
 * the queries return. Compiled by the tests with `javac` (it needs only java.sql); run with the
 * HBase and Phoenix jars on the classpath.
 *
 *   java PhoenixSql jdbc:phoenix:127.0.0.1:<zk port>  < script.sql
 *
 * The script: statements separated by `;` (outside '…' literals and "…" identifiers), `--`
 * comments to the end of the line. Auto-commit is off: the mutations are committed before each
 * query and at the end (DDL runs at once, as always in Phoenix).
 *
 * The output, for each query only: a line of column labels, one line per row, then
 * `(N rows)`. Fields are separated by a tab; NULL is \N; in text a backslash, tab, newline and
 * carriage return are written \\, \t, \n, \r; BINARY/VARBINARY values are lowercase hex;
 * DECIMAL in plain notation (BigDecimal.toPlainString); DATE and TIME as epoch milliseconds;
 * TIMESTAMP as epoch milliseconds, a dot, and the nanoseconds within that millisecond
 * (6 digits). The rest as the driver's getString.
 *
 * A failing statement ends the run with exit status 1, the statement (numbered from 1) and the
 * error on standard error; what was not yet committed is rolled back.
 */

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

public final class PhoenixSql {
    private PhoenixSql() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[1].equals("--timer")) {
            timer(args[0]);
            return;
        }
        if (args.length != 1) {
            System.err.println("usage: PhoenixSql <jdbc url>  < script.sql");
            System.err.println("       PhoenixSql <jdbc url> --timer  (one SELECT a line in, `rows nanos` a line out)");
            System.exit(2);
        }
        String script = new String(readAll(System.in), StandardCharsets.UTF_8);
        List<String> statements = split(script);
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        int n = 0;
        try (Connection conn = DriverManager.getConnection(args[0])) {
            conn.setAutoCommit(false);
            try (Statement st = conn.createStatement()) {
                for (String sql : statements) {
                    n++;
                    if (startsWithWord(sql, "SELECT") || startsWithWord(sql, "EXPLAIN")) {
                        conn.commit();
                    }
                    if (st.execute(sql)) {
                        try (ResultSet rs = st.getResultSet()) {
                            print(rs, out);
                        }
                    }
                }
                conn.commit();
            } catch (SQLException | RuntimeException e) {
                out.flush();
                System.err.println("statement " + n + " failed: " + statements.get(n - 1));
                e.printStackTrace(System.err);
                try {
                    conn.rollback();
                } catch (SQLException ignored) {
                    // the error above is the one to report
                }
                System.exit(1);
            }
        } catch (SQLException e) {
            out.flush();
            System.err.println("connecting to " + args[0] + " failed");
            e.printStackTrace(System.err);
            System.exit(1);
        }
        out.flush();
    }

    /**
     * Benchmark mode: one connection; each line of standard input is a query, run and read to
     * the end (every column of every row fetched); each answer is a line `rows nanos` (the time
     * inside this JVM, from executeQuery to the last row), or `error message`.
     */
    private static void timer(String url) throws Exception {
        java.io.BufferedReader in = new java.io.BufferedReader(
            new java.io.InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, true, "UTF-8");
        try (Connection conn = DriverManager.getConnection(url)) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isEmpty()) {
                    continue;
                }
                try (Statement st = conn.createStatement()) {
                    long start = System.nanoTime();
                    long rows = 0;
                    try (ResultSet rs = st.executeQuery(line)) {
                        int cols = rs.getMetaData().getColumnCount();
                        while (rs.next()) {
                            for (int c = 1; c <= cols; c++) {
                                rs.getObject(c);
                            }
                            rows++;
                        }
                    }
                    out.println(rows + " " + (System.nanoTime() - start));
                } catch (SQLException | RuntimeException e) {
                    out.println("error " + String.valueOf(e.getMessage()).replace('\n', ' '));
                }
            }
        }
    }

    private static byte[] readAll(InputStream in) throws java.io.IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        byte[] chunk = new byte[8192];
        int r;
        while ((r = in.read(chunk)) > 0) {
            buf.write(chunk, 0, r);
        }
        return buf.toByteArray();
    }

    private static boolean startsWithWord(String sql, String word) {
        return sql.regionMatches(true, 0, word, 0, word.length())
            && (sql.length() == word.length() || !Character.isLetterOrDigit(sql.charAt(word.length())));
    }

    /** Splits at `;` outside literals, identifiers and comments; drops empty statements. */
    static List<String> split(String script) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int i = 0;
        int len = script.length();
        while (i < len) {
            char c = script.charAt(i);
            if (c == '\'' || c == '"') {
                // a quoted literal or identifier; the quote doubled stands for itself
                int j = i + 1;
                while (j < len) {
                    if (script.charAt(j) == c) {
                        if (j + 1 < len && script.charAt(j + 1) == c) {
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    j++;
                }
                cur.append(script, i, Math.min(j + 1, len));
                i = j + 1;
            } else if (c == '-' && i + 1 < len && script.charAt(i + 1) == '-') {
                while (i < len && script.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == ';') {
                add(out, cur);
                i++;
            } else {
                cur.append(c);
                i++;
            }
        }
        add(out, cur);
        return out;
    }

    private static void add(List<String> out, StringBuilder cur) {
        String s = cur.toString().trim();
        if (!s.isEmpty()) {
            out.add(s);
        }
        cur.setLength(0);
    }

    private static void print(ResultSet rs, PrintStream out) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int cols = md.getColumnCount();
        StringBuilder line = new StringBuilder();
        for (int c = 1; c <= cols; c++) {
            if (c > 1) {
                line.append('\t');
            }
            line.append(escape(md.getColumnLabel(c)));
        }
        out.println(line);
        long rows = 0;
        while (rs.next()) {
            line.setLength(0);
            for (int c = 1; c <= cols; c++) {
                if (c > 1) {
                    line.append('\t');
                }
                line.append(field(rs, md, c));
            }
            out.println(line);
            rows++;
        }
        out.println("(" + rows + " rows)");
    }

    private static String field(ResultSet rs, ResultSetMetaData md, int c) throws SQLException {
        switch (md.getColumnType(c)) {
            case Types.BINARY:
            case Types.VARBINARY:
            case Types.LONGVARBINARY: {
                byte[] b = rs.getBytes(c);
                if (b == null) {
                    return "\\N";
                }
                StringBuilder hex = new StringBuilder(b.length * 2);
                for (byte x : b) {
                    hex.append(Character.forDigit((x >> 4) & 0xF, 16));
                    hex.append(Character.forDigit(x & 0xF, 16));
                }
                return hex.toString();
            }
            case Types.DECIMAL:
            case Types.NUMERIC: {
                BigDecimal d = rs.getBigDecimal(c);
                return d == null ? "\\N" : d.toPlainString();
            }
            case Types.DATE:
            case Types.TIME:
            case Types.TIMESTAMP: {
                Timestamp t = rs.getTimestamp(c);
                if (t == null) {
                    return "\\N";
                }
                if (md.getColumnType(c) != Types.TIMESTAMP) {
                    return Long.toString(t.getTime());
                }
                return t.getTime() + "." + String.format("%06d", t.getNanos() % 1_000_000);
            }
            default: {
                String s = rs.getString(c);
                return s == null ? "\\N" : escape(s);
            }
        }
    }

    private static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '\\': b.append("\\\\"); break;
                case '\t': b.append("\\t"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                default: b.append(ch);
            }
        }
        return b.toString();
    }
}
