package io.mikyu.bench.jca;

import io.mikyu.bench.jca.app.BenchNames;
import io.mikyu.bench.jca.app.BenchServlet;
import io.mikyu.bench.jca.app.ConsumeMdb;
import io.mikyu.bench.jca.app.Consumption;
import io.mikyu.bench.jca.app.ConsumptionServlet;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.Manifest;
import org.jboss.shrinkwrap.api.ArchivePath;
import org.jboss.shrinkwrap.api.ArchivePaths;
import org.jboss.shrinkwrap.api.Node;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.ByteArrayAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** The deployments: the adapter, the sending application, and each side's consuming application. */
final class BenchArchives {

    private static final ArchivePath MANIFEST = ArchivePaths.create("META-INF/MANIFEST.MF");
    private static final String JDK_UNSUPPORTED = "jdk.unsupported";

    private BenchArchives() {
    }

    /**
     * The adapter as mikyu-jca.rar (its id, which configure.cli and the beans' binding name), without its
     * ironjacamar.xml (the subsystem configures it; both would activate it twice) and with
     * {@code Dependencies: jdk.unsupported} in its manifest (the engine's JCTools queues need sun.misc.Unsafe), as
     * in it/wildfly.
     */
    static ResourceAdapterArchive adapter() {
        String path = System.getProperty("mikyu.rar");
        if (path == null || !Files.isRegularFile(Path.of(path))) {
            throw new IllegalStateException("-Dmikyu.rar is not the adapter's .rar: " + path
                    + " (the build sets it; -am builds the adapter)");
        }
        ResourceAdapterArchive rar = ShrinkWrap.create(ZipImporter.class, "mikyu-jca.rar")
                .importFrom(Path.of(path).toFile()).as(ResourceAdapterArchive.class);
        rar.delete("META-INF/ironjacamar.xml");
        Manifest manifest = manifest(rar.get(MANIFEST));
        Attributes main = manifest.getMainAttributes();
        String dependencies = main.getValue("Dependencies");
        if (dependencies == null || !dependencies.contains(JDK_UNSUPPORTED)) {
            main.putValue("Dependencies", dependencies == null ? JDK_UNSUPPORTED : dependencies + "," + JDK_UNSUPPORTED);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try {
                manifest.write(out);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            rar.delete(MANIFEST);
            rar.add(new ByteArrayAsset(out.toByteArray()), MANIFEST);
        }
        return rar;
    }

    /** The servlet that sends, preloads and drains, for both sides. */
    static WebArchive application() {
        return ShrinkWrap.create(WebArchive.class, "bench.war").addClasses(BenchNames.class, BenchServlet.class);
    }

    /**
     * The same bean for either side: only the descriptors differ, which name the side's queue and its resource
     * adapter. Container-managed, Required: each delivery is an XA transaction of the server's transaction manager
     * with the adapter's session enlisted, as in an application.
     */
    static WebArchive consumer(Side side) {
        String ejbJar = """
                <?xml version="1.0" encoding="UTF-8"?>
                <ejb-jar xmlns="https://jakarta.ee/xml/ns/jakartaee" version="4.0">
                  <enterprise-beans>
                    <message-driven>
                      <ejb-name>ConsumeMdb</ejb-name>
                      <ejb-class>%s</ejb-class>
                      <messaging-type>jakarta.jms.MessageListener</messaging-type>
                      <transaction-type>Container</transaction-type>
                      <activation-config>
                        <activation-config-property>
                          <activation-config-property-name>destinationLookup</activation-config-property-name>
                          <activation-config-property-value>%s</activation-config-property-value>
                        </activation-config-property>
                        <activation-config-property>
                          <activation-config-property-name>destinationType</activation-config-property-name>
                          <activation-config-property-value>jakarta.jms.Queue</activation-config-property-value>
                        </activation-config-property>
                      </activation-config>
                    </message-driven>
                  </enterprise-beans>
                  <assembly-descriptor>
                    <container-transaction>
                      <method><ejb-name>ConsumeMdb</ejb-name><method-name>onMessage</method-name></method>
                      <trans-attribute>Required</trans-attribute>
                    </container-transaction>
                  </assembly-descriptor>
                </ejb-jar>
                """.formatted(ConsumeMdb.class.getName(), side.consumeQueue);
        String jbossEjb3 = """
                <?xml version="1.0" encoding="UTF-8"?>
                <jboss:ejb-jar xmlns:jboss="http://www.jboss.com/xml/ns/javaee" xmlns="http://java.sun.com/xml/ns/javaee"
                               xmlns:mdb="urn:resource-adapter-binding" version="3.1" impl-version="2.0">
                  <assembly-descriptor>
                    <mdb:resource-adapter-binding>
                      <ejb-name>ConsumeMdb</ejb-name>
                      <mdb:resource-adapter-name>%s</mdb:resource-adapter-name>
                    </mdb:resource-adapter-binding>
                  </assembly-descriptor>
                </jboss:ejb-jar>
                """.formatted(side.resourceAdapter);
        return ShrinkWrap.create(WebArchive.class, side.consumerDeployment() + ".war")
                .addClasses(ConsumeMdb.class, Consumption.class, ConsumptionServlet.class)
                .addAsWebInfResource(new StringAsset(ejbJar), "ejb-jar.xml")
                .addAsWebInfResource(new StringAsset(jbossEjb3), "jboss-ejb3.xml");
    }

    private static Manifest manifest(Node node) {
        if (node == null || node.getAsset() == null) {
            Manifest m = new Manifest();
            m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            return m;
        }
        try (InputStream in = node.getAsset().openStream()) {
            return new Manifest(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
