// Prints Java's exception texts for the knowledge base's check
// (crates/kb/tests/runtimes.rs): each exception is made to happen for real
// and its toString() (first line) is printed as java/KEY<TAB>TEXT. Run as
// `java Printer.java` (JDK 17). Classes that must be missing, changed or
// too new are compiled into a temporary directory with the JDK's compiler;
// the heap and the permission checks run in child JVMs (as user nobody
// when root, whom file modes do not stop). Nothing leaves 127.0.0.1.

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Scanner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import javax.tools.ToolProvider;

public class Printer {
    interface Action {
        void run() throws Throwable;
    }

    static Path tmp;
    static final InetAddress LOCAL = InetAddress.getLoopbackAddress();

    static void emit(String key, String text) {
        System.out.println("java/" + key + "\t" + text);
    }

    static String firstLine(Throwable t) {
        return t.toString().split("\n")[0];
    }

    /** Runs an action that must throw; prints the throwable's toString(). */
    static Throwable show(String key, Action action) {
        try {
            action.run();
        } catch (Throwable t) {
            emit(key, firstLine(t));
            return t;
        }
        throw new AssertionError(key + ": no exception happened");
    }

    static Throwable root(Throwable t) {
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    public static void main(String[] args) throws Exception {
        tmp = Files.createTempDirectory("errdex-java-");
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        try {
            language();
            collections();
            parsing();
            files();
            classes();
            network();
            tls();
        } finally {
            deleteTree(tmp);
        }
        System.exit(0);
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                p.toFile().setWritable(true);
                Files.deleteIfExists(p);
            }
        }
    }

    // --- the language ----------------------------------------------------------

    static class Point {
        int x;
    }

    enum Level {
        INFO
    }

    static class Broken {
        static final int VALUE = Integer.parseInt(System.getProperty("errdex.no-such-property", "x"));
    }

    static void recurse() {
        recurse();
    }

    static void language() {
        String name = null;
        Point point = null;
        int[] values = null;
        Map<String, String> config = new HashMap<>();
        show("NullPointerException", () -> name.length());
        show("NullPointerException", () -> config.get("url").trim());
        show("NullPointerException", () -> System.out.println(point.x));
        show("NullPointerException", () -> point.x = 1);
        show("NullPointerException", () -> System.out.println(values[0]));
        show("NullPointerException", () -> values[0] = 1);
        show("NullPointerException", () -> System.out.println(values.length));
        show("NullPointerException", () -> Objects.requireNonNull(name));
        show("NullPointerException", () -> Objects.requireNonNull(name, "config must not be null"));
        show("ArithmeticException.divide-by-zero", () -> {
            int zero = 0;
            System.out.println(1 / zero);
        });
        show("ArithmeticException.non-terminating", () -> BigDecimal.ONE.divide(BigDecimal.valueOf(3)));
        show("ArithmeticException.overflow", () -> Math.toIntExact(1L << 40));
        show("ArrayIndexOutOfBoundsException", () -> {
            int[] three = new int[3];
            three[3] = 1;
        });
        show("NegativeArraySizeException", () -> {
            int n = -1;
            System.out.println(new int[n].length);
        });
        show("ClassCastException", () -> {
            Object o = "8080";
            System.out.println((Integer) o);
        });
        show("StackOverflowError", Printer::recurse);
        show("OutOfMemoryError", () -> System.out.println(new int[Integer.MAX_VALUE].length));
        show("ExceptionInInitializerError", () -> System.out.println(Broken.VALUE));
        Throwable uninitialized = show("NoClassDefFoundError.initialization", () -> System.out.println(Broken.VALUE));
        // Since JDK 17 the error keeps the first failure as its cause.
        emit("ExceptionInInitializerError", firstLine(uninitialized.getCause()));
        show("IllegalArgumentException.enum", () -> Level.valueOf("DEBUG"));
        show("IllegalArgumentException", () -> URI.create("http://example.test/a b"));
        show("InterruptedException", () -> {
            Thread.currentThread().interrupt();
            Thread.sleep(10);
        });
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            show("ExecutionException", () -> pool.submit(() -> {
                throw new IllegalStateException("connection pool exhausted");
            }).get());
        } finally {
            pool.shutdown();
        }
        show("TimeoutException", () -> new CompletableFuture<String>().get(10, TimeUnit.MILLISECONDS));
    }

    static void collections() {
        show("UnsupportedOperationException", () -> List.of(1).add(2));
        show("ConcurrentModificationException", () -> {
            List<Integer> l = new ArrayList<>(List.of(1, 2, 3));
            for (Integer i : l) {
                l.remove(i);
            }
        });
        show("IndexOutOfBoundsException", () -> new ArrayList<String>().get(0));
        show("IndexOutOfBoundsException", () -> List.of(1).get(3));
        show("StringIndexOutOfBoundsException", () -> "abc".charAt(5));
        show("StringIndexOutOfBoundsException", () -> "abc".substring(0, 10));
        show("NoSuchElementException", () -> new ArrayList<String>().iterator().next());
        show("NoSuchElementException", () -> Optional.empty().get());
        show("NoSuchElementException", () -> new Scanner("").nextLine());
        show("IllegalStateException.duplicate-key", () -> Stream.of("a", "a").collect(Collectors.toMap(x -> x, x -> x)));
    }

    static void parsing() {
        show("NumberFormatException", () -> Integer.parseInt("8080x"));
        show("NumberFormatException", () -> Integer.parseInt("zz", 16));
        show("NumberFormatException", () -> Integer.parseInt(null));
        show("NumberFormatException", () -> Double.parseDouble(""));
        show("MalformedURLException", () -> new URL("/api/users"));
        show("MalformedURLException", () -> new URL("localhost:8080/api"));
        show("URISyntaxException", () -> new URI("http://example.test/a b"));
        show("DateTimeParseException", () -> LocalDate.parse("01/02/2024"));
        show("DateTimeParseException", () -> LocalDate.parse("2024-13-01"));
        show("EOFException", () -> new DataInputStream(new ByteArrayInputStream(new byte[0])).readInt());
    }

    // --- files and processes ------------------------------------------------------

    static Path javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /** Runs a child JVM on a class compiled into tmp; gives its standard output. */
    static String runJava(List<String> prefix, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(javaBin().toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new AssertionError(cmd + " failed");
        }
        return out;
    }

    static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    static void compile(Path dir, String className, String source) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(className + ".java");
        Files.writeString(file, source);
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", dir.toString(), "-cp", dir.toString(), file.toString());
        if (rc != 0) {
            throw new AssertionError("compiling " + className);
        }
    }

    static void files() throws Exception {
        Path file = tmp.resolve("app.properties");
        Files.writeString(file, "x");
        show("FileNotFoundException", () -> new FileInputStream(tmp.resolve("missing.properties").toFile()));
        show("FileNotFoundException", () -> new FileInputStream(tmp.toFile()));
        show("NoSuchFileException", () -> Files.readAllBytes(tmp.resolve("missing.json")));
        show("FileAlreadyExistsException", () -> Files.createDirectory(tmp));
        Path full = Files.createDirectory(tmp.resolve("full"));
        Files.writeString(full.resolve("f"), "");
        show("DirectoryNotEmptyException", () -> Files.delete(full));
        show("NotDirectoryException", () -> Files.newDirectoryStream(file));
        show("FileSystemException", () -> Files.createLink(tmp.resolve("dir-link"), tmp));
        Path latin1 = tmp.resolve("latin1.txt");
        Files.write(latin1, new byte[] {'c', 'a', 'f', (byte) 0xe9, '\n'});
        show("MalformedInputException", () -> Files.readAllLines(latin1));
        show("UncheckedIOException", () -> {
            try (Stream<String> lines = Files.lines(latin1)) {
                System.out.println(lines.count());
            }
        });
        // Executing a file without an execute bit is refused even to root.
        show("IOException.cannot-run", () -> new ProcessBuilder("no-such-program-x").start());
        show("IOException.cannot-run", () -> new ProcessBuilder(file.toString()).start());

        // Permission checks, in a child JVM: as nobody when root.
        Path secret = tmp.resolve("secret.txt");
        Files.writeString(secret, "x");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("---------"));
        Path locked = Files.createDirectory(tmp.resolve("locked"));
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-xr-xr-x"));
        Path classes = tmp.resolve("classes");
        compile(classes, "Denied", String.join("\n",
            "import java.nio.file.*;",
            "public class Denied {",
            "  interface A { void run() throws Exception; }",
            "  static void say(A a) { try { a.run(); } catch (Exception e) { System.out.println(e); } }",
            "  public static void main(String[] args) {",
            "    say(() -> new java.io.FileInputStream(args[0]).close());",
            "    say(() -> Files.readAllBytes(Path.of(args[0])));",
            "    say(() -> Files.createDirectory(Path.of(args[1], \"sub\")));",
            "  }",
            "}"));
        Files.setPosixFilePermissions(classes, PosixFilePermissions.fromString("rwxr-xr-x"));
        boolean root = ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        List<String> asNobody = !root ? List.of()
            : onPath("setpriv") ? List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups")
            : List.of("runuser", "-u", "nobody", "--");
        String[] lines = runJava(asNobody, "-cp", classes.toString(), "Denied", secret.toString(), locked.toString())
            .split("\n");
        if (lines.length != 3) {
            throw new AssertionError(String.join("\n", lines));
        }
        emit("FileNotFoundException", lines[0]);
        emit("AccessDeniedException", lines[1]);
        emit("AccessDeniedException", lines[2]);

        // The heap: a child JVM with a small one.
        compile(classes, "Hog", String.join("\n",
            "public class Hog {",
            "  public static void main(String[] args) {",
            "    java.util.List<long[]> l = new java.util.ArrayList<>();",
            "    try { for (;;) l.add(new long[1 << 20]); }",
            "    catch (OutOfMemoryError e) { l = null; System.out.println(e); }",
            "  }",
            "}"));
        emit("OutOfMemoryError", runJava(List.of(), "-Xmx32m", "-cp", classes.toString(), "Hog").trim());
    }

    // --- classes: missing, changed, too new ----------------------------------------

    static void classes() throws Exception {
        show("ClassNotFoundException", () -> Class.forName("com.mysql.cj.jdbc.Driver"));

        Path missing = tmp.resolve("missing");
        compile(missing, "Base", "public class Base {}");
        compile(missing, "Derived", "public class Derived extends Base {}");
        Files.delete(missing.resolve("Base.class"));
        show("NoClassDefFoundError", () -> new URLClassLoader(new URL[] {missing.toUri().toURL()}, null).loadClass("Derived"));

        Path changed = tmp.resolve("changed");
        compile(changed, "Lib", "public class Lib { public static void greet(String name) {} }");
        compile(changed, "App", "public class App { public static void run() { Lib.greet(\"x\"); } }");
        compile(changed, "Lib", "public class Lib { public static void greet() {} }");
        Throwable t = show("InvocationTargetException", () -> new URLClassLoader(new URL[] {changed.toUri().toURL()}, null)
            .loadClass("App").getMethod("run").invoke(null));
        emit("NoSuchMethodError", firstLine(((InvocationTargetException) t).getCause()));

        Path future = tmp.resolve("future");
        compile(future, "Plugin", "public class Plugin {}");
        byte[] bytes = Files.readAllBytes(future.resolve("Plugin.class"));
        bytes[6] = 0;
        bytes[7] = 99; // class file version 99.0
        Files.write(future.resolve("Plugin.class"), bytes);
        show("UnsupportedClassVersionError", () -> new URLClassLoader(new URL[] {future.toUri().toURL()}, null).loadClass("Plugin"));
    }

    // --- network -------------------------------------------------------------------------

    static ServerSocket server(int backlog, Action perConnection) throws IOException {
        ServerSocket ss = new ServerSocket(0, backlog, LOCAL);
        if (perConnection != null) {
            serveEach(ss, c -> {
                current.set(c);
                perConnection.run();
            });
        }
        return ss;
    }

    interface Handler {
        void handle(Socket c) throws Throwable;
    }

    /** Accepts connections on a daemon thread until the socket closes, each handled on a daemon thread of its own. */
    static void serveEach(ServerSocket ss, Handler handler) {
        Thread th = new Thread(() -> {
            while (!ss.isClosed()) {
                try {
                    Socket c = ss.accept();
                    Thread h = new Thread(() -> {
                        try {
                            handler.handle(c);
                        } catch (Throwable ignored) {
                            // the client's side is what is printed
                        }
                    });
                    h.setDaemon(true);
                    h.start();
                } catch (IOException e) {
                    return;
                }
            }
        });
        th.setDaemon(true);
        th.start();
    }

    static final InheritableThreadLocal<Socket> current = new InheritableThreadLocal<>();

    static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, LOCAL)) {
            return s.getLocalPort();
        }
    }

    static void network() throws Exception {
        int closed = closedPort();
        show("ConnectException", () -> new Socket(LOCAL, closed).close());
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(300)).build();
        show("ConnectException", () -> client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + closed + "/")).build(),
            HttpResponse.BodyHandlers.ofString()));

        ServerSocket quiet = server(50, () -> Thread.sleep(30000));
        show("BindException.in-use", () -> new ServerSocket(quiet.getLocalPort(), 50, LOCAL).close());
        show("BindException.cannot-assign", () -> new ServerSocket(0, 50, InetAddress.getByName("192.0.2.254")).close());

        show("UnknownHostException", () -> InetAddress.getByName("no-such-host..invalid"));
        show("UnknownHostException", () -> new Socket("no-such-host..invalid", 80).close());

        Socket s = new Socket(LOCAL, quiet.getLocalPort());
        s.setSoTimeout(100);
        show("SocketTimeoutException", () -> s.getInputStream().read());
        s.close();
        show("HttpTimeoutException", () -> client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + quiet.getLocalPort() + "/"))
            .timeout(Duration.ofMillis(200)).build(), HttpResponse.BodyHandlers.ofString()));

        // A listener that never accepts: once its queue is full the kernel
        // drops new SYNs and connects time out.
        ServerSocket full = new ServerSocket(0, 1, LOCAL);
        List<Socket> fillers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Socket f = new Socket();
            try {
                f.connect(full.getLocalSocketAddress(), 200);
            } catch (IOException e) {
                // a dropped filler is as good
            }
            fillers.add(f);
        }
        show("SocketTimeoutException", () -> new Socket().connect(full.getLocalSocketAddress(), 300));
        show("HttpTimeoutException.connect", () -> client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + full.getLocalPort() + "/")).build(),
            HttpResponse.BodyHandlers.ofString()));
        for (Socket f : fillers) {
            f.close();
        }
        full.close();

        ServerSocket resetting = server(50, () -> {
            Socket c = current.get();
            Thread.sleep(100);
            c.setSoLinger(true, 0);
            c.close();
        });
        show("SocketException.reset", () -> {
            try (Socket c = new Socket(LOCAL, resetting.getLocalPort())) {
                c.getInputStream().read();
            }
        });
        show("SocketException.reset", () -> {
            try (Socket c = new Socket(LOCAL, resetting.getLocalPort())) {
                Thread.sleep(300);
                for (int i = 0; i < 50; i++) {
                    c.getOutputStream().write(new byte[1000]);
                    Thread.sleep(20);
                }
            }
        });
        ServerSocket closing = server(50, () -> current.get().close());
        show("SocketException.broken-pipe", () -> {
            try (Socket c = new Socket(LOCAL, closing.getLocalPort())) {
                Thread.sleep(200);
                for (int i = 0; i < 100; i++) {
                    c.getOutputStream().write(new byte[100000]);
                    Thread.sleep(10);
                }
            }
        });
        show("SocketException.closed", () -> {
            Socket c = new Socket(LOCAL, closing.getLocalPort());
            c.close();
            c.getInputStream();
        });
        show("SocketException.closed", () -> {
            Socket c = new Socket(LOCAL, quiet.getLocalPort());
            InputStream in = c.getInputStream();
            new Thread(() -> {
                try {
                    Thread.sleep(100);
                    c.close();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }).start();
            in.read();
        });
        quiet.close();
        resetting.close();
        closing.close();
    }

    // --- TLS ---------------------------------------------------------------------------------

    static void tls() throws Exception {
        Path keystore = tmp.resolve("server.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
            "-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=localhost",
            "-ext", "SAN=dns:localhost", "-validity", "2", "-storetype", "PKCS12",
            "-keystore", keystore.toString(), "-storepass", "changeit")
            .redirectErrorStream(true).start();
        keytool.getInputStream().readAllBytes();
        if (keytool.waitFor() != 0) {
            throw new AssertionError("keytool failed");
        }
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            ks.load(in, "changeit".toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance("SunX509");
        kmf.init(ks, "changeit".toCharArray());
        SSLContext serverContext = SSLContext.getInstance("TLS");
        serverContext.init(kmf.getKeyManagers(), null, null);
        SSLServerSocket tlsServer = (SSLServerSocket) serverContext.getServerSocketFactory().createServerSocket(0, 50, LOCAL);
        serveEach(tlsServer, c -> {
            ((SSLSocket) c).startHandshake();
            c.getInputStream().read();
        });
        int port = tlsServer.getLocalPort();

        Throwable pkix = show("SSLHandshakeException.pkix", () -> handshake(SSLContext.getDefault(), "localhost", port, false));
        emit("SSLHandshakeException.pkix", firstLine(pkix.getCause()));
        emit("SunCertPathBuilderException", firstLine(root(pkix)));

        TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
        tmf.init(ks);
        SSLContext trusting = SSLContext.getInstance("TLS");
        trusting.init(null, tmf.getTrustManagers(), null);
        Throwable dns = show("SSLHandshakeException.hostname", () -> handshake(trusting, "api.example.test", port, true));
        emit("SSLHandshakeException.hostname", firstLine(dns.getCause()));
        Throwable ip = show("SSLHandshakeException.hostname", () -> handshake(trusting, null, port, true));
        emit("SSLHandshakeException.hostname", firstLine(ip.getCause()));

        // The ClientHello is read first: closing with unread data sends a reset.
        ServerSocket hangup = server(50, () -> {
            Socket c = current.get();
            c.getInputStream().read(new byte[65536]);
            c.close();
        });
        Throwable terminated = show("SSLHandshakeException.remote-closed", () -> handshake(SSLContext.getDefault(), "localhost", hangup.getLocalPort(), false));
        emit("SSLHandshakeException.remote-closed", firstLine(terminated.getCause()));

        ServerSocket plain = server(50, () -> {
            Socket c = current.get();
            c.getInputStream().read(new byte[512]);
            c.getOutputStream().write("HTTP/1.1 400 Bad Request\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            Thread.sleep(1000);
        });
        show("SSLException.unrecognized", () -> handshake(SSLContext.getDefault(), "localhost", plain.getLocalPort(), false));
        tlsServer.close();
        hangup.close();
        plain.close();
    }

    static void handshake(SSLContext context, String name, int port, boolean checkName) throws IOException {
        Socket tcp = new Socket(LOCAL, port);
        String peer = name != null ? name : "127.0.0.1";
        try (SSLSocket s = (SSLSocket) context.getSocketFactory().createSocket(tcp, peer, port, true)) {
            if (checkName) {
                SSLParameters p = s.getSSLParameters();
                p.setEndpointIdentificationAlgorithm("HTTPS");
                s.setSSLParameters(p);
            }
            s.setSoTimeout(5000);
            s.startHandshake();
        }
    }
}
