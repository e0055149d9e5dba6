/** The JMS message selector language over the engine's task filters. */
module io.mikyu.selector {
    requires transitive io.mikyu.engine;

    exports io.mikyu.selector;

    provides io.mikyu.engine.spi.FilterCompiler
            with io.mikyu.selector.SelectorCompiler, io.mikyu.selector.NoLocalFilter.Compiler;
}
