package io.mikyu.it;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;

/**
 * In WildFly the adapter is a deployment of its own, before the application. Its name must be mikyu-jca.rar
 * whatever the file is called: that is the resource adapter's id, which the resource-adapters subsystem
 * (configure.cli) and -Dejb.resource-adapter-name refer to.
 */
public abstract class ServerDeployments {

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive rar() {
        return ShrinkWrap.create(ZipImporter.class, "mikyu-jca.rar").importFrom(Rar.path().toFile())
                .as(ResourceAdapterArchive.class);
    }
}
