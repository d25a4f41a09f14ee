package everycell.baseline;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.opensearch.action.admin.cluster.health.ClusterHealthRequestBuilder;
import org.opensearch.action.admin.cluster.health.ClusterHealthResponse;
import org.opensearch.analysis.common.CommonAnalysisPlugin;
import org.opensearch.cluster.health.ClusterHealthStatus;
import org.opensearch.common.logging.LogConfigurator;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.env.Environment;
import org.opensearch.geo.GeoModulePlugin;
import org.opensearch.index.mapper.MapperExtrasPlugin;
import org.opensearch.index.rankeval.RankEvalPlugin;
import org.opensearch.index.reindex.ReindexPlugin;
import org.opensearch.ingest.common.IngestCommonPlugin;
import org.opensearch.join.ParentJoinPlugin;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.painless.PainlessPlugin;
import org.opensearch.percolator.PercolatorPlugin;
import org.opensearch.plugins.Plugin;
import org.opensearch.script.mustache.MustachePlugin;
import org.opensearch.search.aggregations.matrix.MatrixAggregationPlugin;
import org.opensearch.transport.Netty4Plugin;

/**
 * Starts one real OpenSearch 2.19.1 node in this JVM, the benchmark's baseline.
 *
 * <p>We cannot download the OpenSearch tarball here, only Maven Central artifacts, so instead of
 * bin/opensearch we run the same {@link Node} class the distribution runs, with the modules a
 * distribution ships loaded from the classpath. Usage:
 *
 * <pre>java [jvm flags] -cp target/classes:target/lib/* everycell.baseline.EmbeddedOpenSearch
 *     --port 9200 --transport-port 9300 --home /some/dir [--data dir] [--exit-with-parent]
 *     [--node-name n1 --cluster-name c --seed-hosts 127.0.0.1:9300,127.0.0.1:9301
 *      --initial-cluster-manager-nodes n1,n2]</pre>
 *
 * <p>Data and logs go under the home dir (--data puts the data elsewhere). With --exit-with-parent
 * the node exits when its stdin reaches end-of-file, i.e. when the process that started it is gone.
 *
 * <p>Alone, the node is a single-node cluster. With --seed-hosts and --initial-cluster-manager-nodes
 * it is one node of a cluster on this machine (one JVM per node, each with its own ports and
 * data): it finds its peers through their transport ports, and the first start elects a cluster
 * manager among the named nodes. --node-name and --cluster-name name it.
 *
 * <p>Prints exactly one line {@code everycell-baseline listening on http://127.0.0.1:<port>} to
 * stdout once the cluster is green (with every named node joined); SIGTERM closes the node cleanly.
 */
public final class EmbeddedOpenSearch {
  static final String READY_PREFIX = "everycell-baseline listening on ";

  /** What a distribution loads from its modules/ folder. */
  private static final List<Class<? extends Plugin>> MODULES =
      List.of(
          Netty4Plugin.class, // the HTTP layer; without it the node has no REST endpoint
          CommonAnalysisPlugin.class,
          PainlessPlugin.class,
          MustachePlugin.class,
          MapperExtrasPlugin.class, // scaled_float, rank_feature, search_as_you_type, ...
          MatrixAggregationPlugin.class,
          ParentJoinPlugin.class,
          ReindexPlugin.class,
          PercolatorPlugin.class,
          RankEvalPlugin.class,
          GeoModulePlugin.class, // geo_shape aggregations
          IngestCommonPlugin.class);

  /**
   * k-NN (knn_vector, query.knn). Maven Central has it only as a plugin zip, whose jars the build
   * unpacks into target/lib after compilation, so it is looked up by name at run time. Only its
   * lucene engine works here: the native faiss/nmslib libraries are not in the zip.
   */
  private static final String KNN_PLUGIN = "org.opensearch.knn.plugin.KNNPlugin";

  static List<Class<? extends Plugin>> plugins() throws ClassNotFoundException {
    List<Class<? extends Plugin>> all = new ArrayList<>(MODULES);
    all.add(Class.forName(KNN_PLUGIN).asSubclass(Plugin.class));
    return all;
  }

  /** {@link Node}'s plugin-taking constructor is protected: this subclass only exposes it. */
  private static final class BaselineNode extends Node {
    BaselineNode(Environment environment, List<Class<? extends Plugin>> plugins) {
      // forbidPrivateIndexSettings=true is what a normal node uses.
      super(environment, plugins, true);
    }
  }

  private EmbeddedOpenSearch() {}

  public static void main(String[] args) {
    Options options;
    try {
      options = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("everycell-baseline: " + e.getMessage());
      System.err.println(Options.USAGE);
      System.exit(2);
      return;
    }
    try {
      run(options);
    } catch (Throwable t) {
      System.err.println("everycell-baseline: failed to start: " + t);
      t.printStackTrace();
      System.exit(1);
    }
  }

  private static void run(Options options) throws Exception {
    Path home = options.home.toAbsolutePath();
    Files.createDirectories(home.resolve("config"));
    Settings settings = nodeSettings(options, home);

    // Console-only logging (no log4j2.properties to ship); the harness captures stdout/stderr.
    LogConfigurator.configureWithoutConfig(settings);
    Environment environment =
        InternalSettingsPreparer.prepareEnvironment(settings, Map.of(), null, () -> "baseline");
    Node node = new BaselineNode(environment, plugins());

    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    node.close();
                    node.awaitClose(15, TimeUnit.SECONDS);
                  } catch (Exception e) {
                    System.err.println("everycell-baseline: error while closing: " + e);
                  } finally {
                    stopped.countDown();
                  }
                },
                "everycell-baseline-shutdown"));

    if (options.exitWithParent) {
      watchParent();
    }
    node.start();
    ClusterHealthResponse health = waitUntilReady(node, options);
    if (health.isTimedOut() || health.getStatus() != ClusterHealthStatus.GREEN) {
      throw new IllegalStateException(
          "cluster did not turn green: "
              + health.getStatus()
              + " with "
              + health.getNumberOfNodes()
              + " node(s)");
    }
    System.out.println(READY_PREFIX + "http://127.0.0.1:" + options.port);
    System.out.flush();

    // The node's threads may all be daemons: keep the JVM alive until the shutdown hook ran.
    stopped.await();
  }

  /**
   * Green, and in a cluster every named node joined. An empty single-node cluster turns green at
   * once; a data dir with indices takes longer. Cluster nodes start one JVM each on a shared
   * machine (a 2-core box pre-touching N heaps), so they get far longer to find each other; the
   * cluster-manager timeout covers the time before one is elected, when the request has nowhere
   * to go.
   */
  private static ClusterHealthResponse waitUntilReady(Node node, Options options) {
    TimeValue timeout =
        options.isClusterNode() ? TimeValue.timeValueMinutes(5) : TimeValue.timeValueSeconds(60);
    ClusterHealthRequestBuilder request =
        node.client()
            .admin()
            .cluster()
            .prepareHealth()
            .setWaitForGreenStatus()
            .setTimeout(timeout)
            .setClusterManagerNodeTimeout(timeout);
    if (options.isClusterNode()) {
      request.setWaitForNodes(String.valueOf(options.initialClusterManagerNodes.size()));
    }
    return request.get();
  }

  /**
   * The harness keeps our stdin open and never writes to it; end-of-file means the harness is
   * gone (even if it was SIGKILLed and could not stop us), so the node must not outlive it.
   */
  private static void watchParent() {
    Thread watcher =
        new Thread(
            () -> {
              try {
                while (System.in.read() != -1) {
                  // Nothing is ever sent; ignore stray bytes.
                }
              } catch (Exception e) {
                // A broken stdin means the same as end-of-file.
              }
              System.err.println("everycell-baseline: parent process gone (stdin closed); exiting");
              System.exit(0); // runs the shutdown hook, which closes the node cleanly
            },
            "everycell-baseline-parent-watch");
    watcher.setDaemon(true);
    watcher.start();
  }

  /** Node settings: OpenSearch defaults except where a benchmark baseline needs otherwise. */
  static Settings nodeSettings(Options options, Path home) {
    Path data = options.data == null ? home.resolve("data") : options.data.toAbsolutePath();
    Settings.Builder settings =
        Settings.builder()
            .put("cluster.name", options.clusterName)
            .put("node.name", options.nodeName)
            .put("path.home", home.toString())
            .put("path.data", data.toString())
            .put("path.logs", home.resolve("logs").toString())
            // Without a log4j2.properties only errors reach the console; INFO is what a
            // distribution logs, and the harness keeps it in the engine's log file for diagnosis.
            .put("logger.level", "INFO")
            // Loopback only: there is no security plugin, so nothing may listen beyond this box.
            .put("network.host", "127.0.0.1")
            .put("http.port", options.port)
            .put("transport.port", options.transportPort)
            // The watermarks would make indices read-only when the shared disk fills mid-run,
            // turning a benchmark into a stream of errors that say nothing about the engine.
            .put("cluster.routing.allocation.disk.threshold_enabled", false);
    if (options.isClusterNode()) {
      // Peers on this machine, found through their transport ports. The initial list only
      // matters on the very first start; a restart finds the cluster it belongs to on disk.
      settings
          .putList("discovery.seed_hosts", options.seedHosts)
          .putList("cluster.initial_cluster_manager_nodes", options.initialClusterManagerNodes);
    } else {
      // One node that elects itself: no discovery, no waiting for peers.
      settings.put("discovery.type", "single-node");
    }
    return settings.build();
  }

  /**
   * The command line: --port N --transport-port M --home DIR are required; the cluster flags come
   * together or not at all.
   */
  static final class Options {
    static final String USAGE =
        "usage: EmbeddedOpenSearch --port <http port> --transport-port <port> --home <dir>"
            + " [--data <dir>] [--node-name <name>] [--cluster-name <name>]"
            + " [--seed-hosts <host:port,...> --initial-cluster-manager-nodes <name,...>]"
            + " [--exit-with-parent]";
    int port = -1;
    boolean exitWithParent;
    int transportPort = -1;
    Path home;
    Path data;
    String nodeName = "baseline";
    String clusterName = "everycell-baseline";
    List<String> seedHosts = List.of();
    List<String> initialClusterManagerNodes = List.of();

    /** One node of a multi-node cluster rather than a single node electing itself. */
    boolean isClusterNode() {
      return !seedHosts.isEmpty();
    }

    static Options parse(String[] args) {
      Options o = new Options();
      for (int i = 0; i < args.length; i++) {
        String flag = args[i];
        if (flag.equals("--exit-with-parent")) {
          o.exitWithParent = true;
          continue;
        }
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException("missing value after " + flag);
        }
        String value = args[++i];
        switch (flag) {
          case "--port" -> o.port = port(flag, value);
          case "--transport-port" -> o.transportPort = port(flag, value);
          case "--home" -> o.home = Path.of(value);
          case "--data" -> o.data = Path.of(value);
          case "--node-name" -> o.nodeName = name(flag, value);
          case "--cluster-name" -> o.clusterName = name(flag, value);
          case "--seed-hosts" -> o.seedHosts = list(flag, value);
          case "--initial-cluster-manager-nodes" -> o.initialClusterManagerNodes = list(flag, value);
          default -> throw new IllegalArgumentException("unknown option " + flag);
        }
      }
      if (o.port < 0 || o.transportPort < 0 || o.home == null) {
        throw new IllegalArgumentException("--port, --transport-port and --home are required");
      }
      if (o.seedHosts.isEmpty() != o.initialClusterManagerNodes.isEmpty()) {
        throw new IllegalArgumentException(
            "--seed-hosts and --initial-cluster-manager-nodes go together: pass both, or neither");
      }
      if (o.isClusterNode() && !o.initialClusterManagerNodes.contains(o.nodeName)) {
        throw new IllegalArgumentException(
            "--node-name "
                + o.nodeName
                + " must be one of --initial-cluster-manager-nodes "
                + String.join(",", o.initialClusterManagerNodes));
      }
      return o;
    }

    private static String name(String flag, String value) {
      if (!value.matches("[A-Za-z0-9._-]+")) {
        throw new IllegalArgumentException(
            flag + " takes letters, digits, '.', '_' and '-', got " + value);
      }
      return value;
    }

    private static List<String> list(String flag, String value) {
      List<String> items = new ArrayList<>();
      for (String item : value.split(",")) {
        if (!item.isBlank()) {
          items.add(item.trim());
        }
      }
      if (items.isEmpty()) {
        throw new IllegalArgumentException(flag + " needs a comma-separated list, got " + value);
      }
      return List.copyOf(items);
    }

    private static int port(String flag, String value) {
      try {
        int p = Integer.parseInt(value);
        if (p < 1 || p > 65535) {
          throw new NumberFormatException();
        }
        return p;
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(flag + " must be a port number 1-65535, got " + value);
      }
    }
  }
}
