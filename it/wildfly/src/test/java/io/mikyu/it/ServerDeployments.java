package io.mikyu.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.jar.Attributes;
import java.util.jar.Manifest;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.ArchivePath;
import org.jboss.shrinkwrap.api.ArchivePaths;
import org.jboss.shrinkwrap.api.Node;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.ByteArrayAsset;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;

/**
 * In WildFly the adapter is a deployment of its own, before the application. Its name must be mikyu-jca.rar
 * whatever the file is called: that is the resource adapter's id, which the resource-adapters subsystem
 * (configure.cli) and -Dejb.resource-adapter-name refer to.
 *
 * <p>Two changes to the archive as built, each for a fact of WildFly 39:
 * <ul>
 *   <li>Its META-INF/ironjacamar.xml (the adapter's WildFly defaults) is left out: WildFly activates an archive from
 *   its ironjacamar.xml and from the subsystem's entry for it both, and with the same id the second fails
 *   (WFLYJCA0046, DuplicateServiceException: jboss.ra.mikyu-jca is already registered), so the deployment is
 *   rolled back. The tests configure the adapter as an administrator does, in the subsystem.</li>
 *   <li>Its manifest gets {@code Dependencies: jdk.unsupported} unless it has it: a deployment does not see
 *   {@code sun.misc.Unsafe} without it, and the engine's group-commit writer needs it through JCTools
 *   (NoClassDefFoundError: sun/misc/Unsafe from Module "deployment.mikyu-jca.rar" on the first connection).</li>
 * </ul>
 */
public abstract class ServerDeployments {

    private static final ArchivePath MANIFEST = ArchivePaths.create("META-INF/MANIFEST.MF");
    private static final String JDK_UNSUPPORTED = "jdk.unsupported";

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive rar() {
        ResourceAdapterArchive rar = ShrinkWrap.create(ZipImporter.class, "mikyu-jca.rar")
                .importFrom(Rar.path().toFile()).as(ResourceAdapterArchive.class);
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
