/** The consumer as a module: it reads org.wixlib, whose only exported package is org.wixlib. */
module org.wixlib.example {
  requires org.wixlib;
}
