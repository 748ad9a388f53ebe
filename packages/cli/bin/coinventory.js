#!/usr/bin/env node
// The installed command only loads the build. It is a file of its own, not dist/coinventory.js itself, so that the
// package manager can link the command when it installs the workspace, before anything is built.
import '../dist/coinventory.js';
